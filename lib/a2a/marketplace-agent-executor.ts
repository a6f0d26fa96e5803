import "server-only";
import { randomUUID } from "node:crypto";
import { type Message, Role } from "@a2a-js/sdk";
import { AgentEvent, type AgentExecutor, type ExecutionEventBus, type RequestContext } from "@a2a-js/sdk/server";
import { listingCardPath, listingEndpointPath } from "@/lib/a2a/agent-cards";
import { messageText } from "@/lib/a2a/message-text";
import { searchMarketplace } from "@/lib/agents/search-marketplace";
import type { MarketplaceAgent } from "@/lib/agents/to-marketplace-agent";
import { microToUsdc } from "@/lib/money/usdc";
import { marketplaceQuerySchema } from "@/lib/schemas/marketplace-query";

const usdc = (micro: bigint | null) => (micro === null ? null : microToUsdc(micro));

/**
 * The marketplace's agent (POST /a2a, the find-agents skill): a message's text is the search, a
 * data part may add the marketplace's filters; the answer is one message (no task: nothing is
 * kept) with a text part in the service's words and a data part with the page of listings: card
 * and endpoint URLs, prices in USDC, measured reliability, and each description under a name that
 * says it is the owner's words.
 */
export class MarketplaceAgentExecutor implements AgentExecutor {
  constructor(private readonly origin: string) {}

  async execute(context: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const { userMessage, contextId } = context;
    const q = messageText(userMessage);
    const query = marketplaceQuerySchema.parse({ ...filtersOf(userMessage), ...(q ? { q } : {}) });
    const result = await searchMarketplace(query);
    const listings = result.agents.map((agent) => this.listing(agent));
    const searched = query.q ? `for ${JSON.stringify(query.q)}` : "(no search words)";
    const summary =
      result.total === 0
        ? `No listings matched ${searched}.`
        : `${result.total} listing${result.total === 1 ? "" : "s"} matched ${searched}; page ${result.page} of ${result.pageCount} (${listings.length}) is in the data part. Each listing's agent card (card_url) takes a rental code of that agent; rent it at marketplace_url.`;
    const answer: Message = {
      messageId: randomUUID(),
      contextId,
      taskId: "",
      role: Role.ROLE_AGENT,
      parts: [
        { content: { $case: "text", value: summary }, mediaType: "text/plain", filename: "", metadata: {} },
        {
          content: { $case: "data", value: { total: result.total, page: result.page, pageCount: result.pageCount, listings } },
          mediaType: "application/json",
          filename: "",
          metadata: {},
        },
      ],
      metadata: {},
      extensions: [],
      referenceTaskIds: [],
    };
    bus.publish(AgentEvent.message(answer));
    bus.finished();
  }

  async cancelTask(): Promise<void> {}

  private listing(agent: MarketplaceAgent) {
    return {
      agentId: agent.id,
      name: agent.name,
      card_url: `${this.origin}${listingCardPath(agent.id)}`,
      endpoint_url: `${this.origin}${listingEndpointPath(agent.id)}`,
      marketplace_url: `${this.origin}/agents/${agent.id}`,
      category: agent.category,
      skills: agent.skills,
      prices_usdc: { hour: usdc(agent.prices.hour), day: usdc(agent.prices.day), month: usdc(agent.prices.month) },
      price_per_message_usdc: usdc(agent.pricePerMessage),
      reliability: {
        uptime_percent: agent.reliability.uptime,
        uptime_source: agent.reliability.uptimeSource,
        median_reply_ms: agent.reliability.medianMs,
        success_rate_percent: agent.reliability.successRate,
      },
      rating: agent.rating,
      total_rentals: agent.totalRentals,
      description_written_by_owner: agent.description,
    };
  }
}

// The filters of a data part, in the marketplace URL's string form (marketplaceQuerySchema drops
// what does not parse): {"category": "coding", "maxPrice": 5, "perMessage": true, …}.
function filtersOf(message: Message): Record<string, string> {
  const filters: Record<string, string> = {};
  for (const part of message.parts) {
    if (part.content?.$case !== "data" || part.content.value === null || typeof part.content.value !== "object") continue;
    for (const [key, value] of Object.entries(part.content.value as Record<string, unknown>)) {
      if (typeof value === "string" || typeof value === "number") filters[key] = String(value);
      else if (value === true) filters[key] = "1";
    }
  }
  return filters;
}
