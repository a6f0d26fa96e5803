// POST /api/auth/email — e-mail a one-time sign-in link (to `next`, a path on this site, when given);
// 202 {sent:true} whether or not the address has an account.

import { sendMagicLink } from "@/lib/auth/send-magic-link";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";
import { parseJsonBody } from "@/lib/http/parse-json-body";
import { NO_STORE, signInRoute } from "@/lib/http/routes/sign-in-route";
import { AUTH_BODY_MAX_BYTES, emailSignInSchema } from "@/lib/schemas/auth";

export const POST = signInRoute(async ({ req }) => {
  const { email, next } = await parseJsonBody(req, emailSignInSchema, AUTH_BODY_MAX_BYTES);
  await sendMagicLink(email, next ?? null);
  return Response.json({ sent: true }, { status: 202, headers: NO_STORE });
});

export const GET = methodNotAllowed("POST");
export const PUT = GET;
export const PATCH = GET;
export const DELETE = GET;
