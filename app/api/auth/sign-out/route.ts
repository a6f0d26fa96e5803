// POST /api/auth/sign-out — ends this session, or with {"everywhere": true} every session of the
// account; 204 and a cookie-clearing header, signed in or not. Only from this site's own pages: a
// cross-site form or script must not sign visitors out (403), and no GET ever does (405).
import { currentSession } from "@/lib/auth/current-account";
import { revokeAllSessions, revokeSession } from "@/lib/auth/revoke-sessions";
import { clearedSessionCookie } from "@/lib/auth/session-cookie";
import { ApiError } from "@/lib/http/api-error";
import { isSameOriginRequest } from "@/lib/http/is-same-origin-request";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";
import { parseJsonBody } from "@/lib/http/parse-json-body";
import { route } from "@/lib/http/routes/route";
import { signOutSchema } from "@/lib/schemas/auth";

export const POST = route({ auth: currentSession }, async ({ req, auth }) => {
  if (!isSameOriginRequest(req)) {
    throw new ApiError(403, "Sign out from this site's own pages: this request did not come from them, so nothing was changed.");
  }
  // A bare POST (no Content-Type) signs out this browser; a body must be JSON.
  const { everywhere } = req.headers.get("content-type") ? await parseJsonBody(req, signOutSchema, 1024) : { everywhere: false };
  if (auth && everywhere) await revokeAllSessions(auth.session.accountId);
  else if (auth) await revokeSession(auth.session.id);
  return new Response(null, {
    status: 204,
    headers: { "Cache-Control": "no-store", "Set-Cookie": clearedSessionCookie() },
  });
});

export const GET = methodNotAllowed("POST");
export const PUT = GET;
export const PATCH = GET;
export const DELETE = GET;
