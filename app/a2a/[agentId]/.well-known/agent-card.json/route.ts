// GET /a2a/{agentId}/.well-known/agent-card.json — a listing's A2A agent card (docs/a2a.md): 404
// for an unknown, deleted or unlisted (offline, no webhook) agent; both cached at the edge for 60 s.
import { agentCardJson, listingAgentCard } from "@/lib/a2a/agent-cards";
import { findA2aListing } from "@/lib/a2a/find-a2a-listing";
import { appUrl } from "@/lib/env";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";
import { agentCardNotFound, agentCardPreflight, agentCardResponse } from "@/lib/http/routes/a2a-route";
import { route } from "@/lib/http/routes/route";

export function GET(req: Request, segment: { params: Promise<{ agentId: string }> }): Promise<Response> {
  return route({ cors: "GET, OPTIONS", auth: async () => null }, async () => {
    const found = await findA2aListing((await segment.params).agentId);
    if (!found?.listed) return agentCardNotFound("No agent listed on the marketplace has this id: it is unknown, deleted or offline.");
    return agentCardResponse(agentCardJson(listingAgentCard(found.listing, appUrl())));
  })(req);
}

export const OPTIONS = agentCardPreflight;
export const POST = methodNotAllowed("GET");
export const PUT = POST;
export const PATCH = POST;
export const DELETE = POST;
