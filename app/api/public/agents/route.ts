// GET /api/public/agents — the key's account's listings; POST — creates one (available, but it
// receives no traffic until a webhook is connected).
import { createAgent } from "@/lib/agents/create-agent";
import { listOwnerAgents } from "@/lib/agents/list-owner-agents";
import { toAgentView } from "@/lib/agents/to-agent-view";
import { parseJsonBody } from "@/lib/http/parse-json-body";
import { OWNER_BODY_MAX_BYTES, ownerMethodNotAllowed, ownerRoute } from "@/lib/http/routes/owner-route";
import { agentListingSchema } from "@/lib/schemas/agent-listing";

export const GET = ownerRoute(async ({ auth }) => Response.json({ agents: await listOwnerAgents(auth.accountId) }));

export const POST = ownerRoute(async ({ req, auth }) => {
  const listing = await parseJsonBody(req, agentListingSchema, OWNER_BODY_MAX_BYTES);
  const agent = await createAgent(auth.accountId, listing, { status: "available" });
  return Response.json({ agent: toAgentView(agent) }, { status: 201 });
});

export const PUT = ownerMethodNotAllowed("GET, POST");
export const PATCH = PUT;
export const DELETE = PUT;
