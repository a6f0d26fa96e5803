// GET /api/auth/nonce — a one-time nonce for a Sign-In with Ethereum message (good for 10 minutes).
import { issueSiweNonce } from "@/lib/auth/issue-siwe-nonce";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";
import { NO_STORE, signInRoute } from "@/lib/http/routes/sign-in-route";

export const GET = signInRoute(async () => {
  const { nonce, expiresAt } = await issueSiweNonce();
  return Response.json({ nonce, expiresAt: expiresAt.toISOString() }, { headers: NO_STORE });
});

export const POST = methodNotAllowed("GET");
export const PUT = POST;
export const PATCH = POST;
export const DELETE = POST;
