// POST /api/auth/siwe — sign in with a wallet: {message, signature} → the account and a session cookie.

import type { Hex } from "viem";
import { createSession } from "@/lib/auth/create-session";
import { verifySiweSignIn } from "@/lib/auth/verify-siwe-sign-in";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";
import { parseJsonBody } from "@/lib/http/parse-json-body";
import { NO_STORE, signInRoute } from "@/lib/http/routes/sign-in-route";
import { AUTH_BODY_MAX_BYTES, siweSignInSchema, toAccountView } from "@/lib/schemas/auth";

export const POST = signInRoute(async ({ req }) => {
  const body = await parseJsonBody(req, siweSignInSchema, AUTH_BODY_MAX_BYTES);
  const requestHost = req.headers.get("host") ?? new URL(req.url).host;
  const account = await verifySiweSignIn({ message: body.message, signature: body.signature as Hex, requestHost });
  const { cookie } = await createSession(account.id, { method: "siwe", userAgent: req.headers.get("user-agent") });
  return Response.json({ account: toAccountView(account) }, { headers: { ...NO_STORE, "Set-Cookie": cookie } });
});

export const GET = methodNotAllowed("POST");
export const PUT = GET;
export const PATCH = GET;
export const DELETE = GET;
