// GET /api/auth/email/callback?token=… — the e-mailed link: 303 to /dashboard with a session
// cookie, or to /sign-in?error=link-invalid|link-expired|link-used.
import { createSession } from "@/lib/auth/create-session";
import { redeemMagicLink } from "@/lib/auth/redeem-magic-link";
import { NO_STORE, signInRoute } from "@/lib/auth/sign-in-route";

// The token must not travel on in a Referer header, nor stay in a cache.
const HEADERS = { ...NO_STORE, "Referrer-Policy": "no-referrer" };

export const GET = signInRoute(async ({ req }) => {
  const result = await redeemMagicLink(new URL(req.url).searchParams.get("token"));
  if (!result.ok) {
    return new Response(null, { status: 303, headers: { ...HEADERS, Location: `/sign-in?error=${result.reason}` } });
  }
  const { cookie } = await createSession(result.account.id, { method: "email", userAgent: req.headers.get("user-agent") });
  return new Response(null, { status: 303, headers: { ...HEADERS, Location: "/dashboard", "Set-Cookie": cookie } });
});
