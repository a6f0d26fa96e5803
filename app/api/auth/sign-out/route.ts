// POST /api/auth/sign-out — ends this session, or with {"everywhere": true} every session of the
// account; 204 and a cookie-clearing header, signed in or not.
import { currentSession } from "@/lib/auth/current-account";
import { revokeAllSessions, revokeSession } from "@/lib/auth/revoke-sessions";
import { clearedSessionCookie } from "@/lib/auth/session-cookie";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";
import { parseJsonBody } from "@/lib/http/parse-json-body";
import { route } from "@/lib/http/route";
import { signOutSchema } from "@/lib/schemas/auth";

export const POST = route({ auth: currentSession }, async ({ req, auth }) => {
  // A bare POST (no Content-Type) signs out this browser; a body must be JSON.
  const { everywhere } = req.headers.get("content-type") ? await parseJsonBody(req, signOutSchema, 1024) : { everywhere: false };
  if (auth && everywhere) await revokeAllSessions(auth.session.accountId);
  else if (auth) await revokeSession(auth.session.id);
  return new Response(null, { status: 204, headers: { "Cache-Control": "no-store", "Set-Cookie": clearedSessionCookie() } });
});

export const GET = methodNotAllowed("POST");
export const PUT = GET;
export const PATCH = GET;
export const DELETE = GET;
