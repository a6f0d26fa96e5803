// GET /.well-known/agent-card.json — the marketplace's own A2A agent card: the service, with the
// find-agents skill served at POST /a2a without a rental code (docs/a2a.md). Cached at the edge 60 s.
import { agentCardJson, marketplaceAgentCard } from "@/lib/a2a/agent-cards";
import { appUrl } from "@/lib/env";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";
import { agentCardPreflight, agentCardResponse } from "@/lib/http/routes/a2a-route";

export function GET(): Response {
  return agentCardResponse(agentCardJson(marketplaceAgentCard(appUrl())));
}

export const OPTIONS = agentCardPreflight;
export const POST = methodNotAllowed("GET");
export const PUT = POST;
export const PATCH = POST;
export const DELETE = POST;
