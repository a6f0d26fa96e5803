// GET /api/auth/session — the signed-in account (from the ars_session cookie), or 401.

import { methodNotAllowed } from "@/lib/http/method-not-allowed";
import { sessionRoute } from "@/lib/http/routes/session-route";
import { NO_STORE } from "@/lib/http/routes/sign-in-route";
import { toAccountView } from "@/lib/schemas/auth";

export const GET = sessionRoute(async ({ auth }) =>
  Response.json(
    { account: toAccountView(auth.account), session: { expiresAt: auth.session.expiresAt.toISOString() } },
    { headers: NO_STORE },
  ),
);

export const POST = methodNotAllowed("GET");
export const PUT = POST;
export const PATCH = POST;
export const DELETE = POST;
