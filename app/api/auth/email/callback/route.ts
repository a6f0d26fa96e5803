// POST /api/auth/email/callback (form fields `token`, and `next`) — the button of the page an
// e-mailed link opens (/sign-in/email): 303 to `next` (a path on this site; else /dashboard) with a
// session cookie, or to /sign-in?error=link-invalid|link-expired|link-used (keeping `next`, so a
// new link still leads there). Opening the link spends nothing, so mail
// scanners that follow links cannot use it up; only a form on this site may post here (a
// cross-site form could otherwise sign a visitor into someone else's account).
import { createSession } from "@/lib/auth/create-session";
import { redeemMagicLink } from "@/lib/auth/redeem-magic-link";
import { AFTER_SIGN_IN, readSignInNext, signInPath } from "@/lib/auth/sign-in-path";
import { ApiError } from "@/lib/http/api-error";
import { isSameOriginRequest } from "@/lib/http/is-same-origin-request";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";
import { parseFormBody } from "@/lib/http/parse-form-body";
import { NO_STORE, signInRoute } from "@/lib/http/routes/sign-in-route";

// The form holds one 43-character token and a path of at most 1,024 characters (3 KiB once
// form-encoded); anything larger is not this site's form (413).
const CALLBACK_BODY_MAX_BYTES = 4 * 1024;

// The token must not travel on in a Referer header, nor stay in a cache.
const HEADERS = { ...NO_STORE, "Referrer-Policy": "no-referrer" };

export const POST = signInRoute(async ({ req }) => {
  if (!isSameOriginRequest(req))
    throw new ApiError(403, "Sign-in links are confirmed on this site's own page; open the link from the e-mail again.");
  const form = await parseFormBody(req, CALLBACK_BODY_MAX_BYTES);
  const token = form?.get("token");
  // A path on this site or nothing: a form crafted elsewhere cannot make this an open redirect.
  const next = readSignInNext(form?.get("next"));
  const result = await redeemMagicLink(typeof token === "string" ? token : null);
  if (!result.ok) {
    return new Response(null, { status: 303, headers: { ...HEADERS, Location: signInPath({ error: result.reason, next }) } });
  }
  const { cookie } = await createSession(result.account.id, {
    method: "email",
    userAgent: req.headers.get("user-agent"),
  });
  return new Response(null, { status: 303, headers: { ...HEADERS, Location: next ?? AFTER_SIGN_IN, "Set-Cookie": cookie } });
});

export const GET = methodNotAllowed("POST");
export const PUT = GET;
export const PATCH = GET;
export const DELETE = GET;
