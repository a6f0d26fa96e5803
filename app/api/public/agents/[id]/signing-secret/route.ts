// POST /api/public/agents/{id}/signing-secret — a new webhook signing secret (whsec_…), answered
// once; the service signs with it from now on and the old one stops verifying.
import { rotateSigningSecret } from "@/lib/agents/rotate-signing-secret";
import { ownerMethodNotAllowed, ownerRoute } from "@/lib/http/routes/owner-route";

export const POST = ownerRoute<{ id: string }>(async ({ auth, params }) => {
  return Response.json({ signingSecret: await rotateSigningSecret(auth.accountId, params.id) });
});

export const GET = ownerMethodNotAllowed("POST");
export const PUT = GET;
export const PATCH = GET;
export const DELETE = GET;
