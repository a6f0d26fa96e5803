// GET /api/public/agents/{id} — one listing; PATCH — changes some of its fields; DELETE —
// removes a listing that was never rented (409 otherwise).
import { deleteAgent } from "@/lib/agents/delete-agent";
import { findOwnerAgent } from "@/lib/agents/find-owner-agent";
import { loadAgentViews } from "@/lib/agents/load-agent-views";
import { updateAgent } from "@/lib/agents/update-agent";
import { parseJsonBody } from "@/lib/http/parse-json-body";
import { OWNER_BODY_MAX_BYTES, ownerMethodNotAllowed, ownerRoute } from "@/lib/http/routes/owner-route";
import { agentListingPatchSchema } from "@/lib/schemas/agent-listing";

export const GET = ownerRoute<{ id: string }>(async ({ auth, params }) => {
  const [agent] = await loadAgentViews([await findOwnerAgent(auth.accountId, params.id)]);
  return Response.json({ agent });
});

export const PATCH = ownerRoute<{ id: string }>(async ({ req, auth, params }) => {
  const patch = await parseJsonBody(req, agentListingPatchSchema, OWNER_BODY_MAX_BYTES);
  const [agent] = await loadAgentViews([await updateAgent(auth.accountId, params.id, patch)]);
  return Response.json({ agent });
});

export const DELETE = ownerRoute<{ id: string }>(async ({ auth, params }) => {
  await deleteAgent(auth.accountId, params.id);
  return new Response(null, { status: 204 });
});

export const POST = ownerMethodNotAllowed("GET, PATCH, DELETE");
export const PUT = POST;
