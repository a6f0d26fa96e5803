import { listingBasics } from "@/lib/agents/listing-basics";
import { notRentableReason } from "@/lib/agents/to-marketplace-agent";
import { appUrl } from "@/lib/env";
import { microToUsdc } from "@/lib/money/usdc";

export type AgentRow = {
  id: string;
  name: string;
  description: string;
  category: string;
  skills: string[];
  channels: string[];
  pricePerHour: bigint | null;
  pricePerDay: bigint | null;
  pricePerMonth: bigint | null;
  pricePerMessage: bigint | null;
  trialMessages: number | null;
  guaranteePermille: number;
  status: string;
  webhookUrlCipher: string | null;
  createdAt: Date;
};

// Ratings and rentals live in other tables; loadAgentViews reads them for many agents at once.
export type ListingStats = { rating: { average: number | null; count: number }; totalRentals: number };

// What a listing that was just created has.
const NEW_LISTING: ListingStats = { rating: { average: null, count: 0 }, totalRentals: 0 };

const price = (micro: bigint | null) => (micro === null ? null : microToUsdc(micro));

// What an owner sees of a listing: prices in USDC, whether a webhook is connected, never the
// webhook URL or token.
export function toAgentView(agent: AgentRow, stats: ListingStats = NEW_LISTING) {
  return {
    ...listingBasics(agent),
    pricePerHour: price(agent.pricePerHour),
    pricePerDay: price(agent.pricePerDay),
    pricePerMonth: price(agent.pricePerMonth),
    // One answer sold over x402 to other agents and scripts; null: not sold per message.
    pricePerMessage: price(agent.pricePerMessage),
    // Free messages each renter may send, paid for by the owner (docs/trials.md); null: no trial.
    trialMessages: agent.trialMessages,
    // The uptime guarantee in percent (99, 99.9): down minutes beyond it are refunded to renters.
    guaranteePercent: agent.guaranteePermille / 10,
    status: agent.status,
    webhookConnected: agent.webhookUrlCipher !== null,
    // The status alone says `available` for a listing made through this API before it has a
    // webhook (as the specification requires): whether renters can rent it, and why not.
    notRentableReason: notRentableReason({ ...agent, webhookConnected: agent.webhookUrlCipher !== null }),
    marketplaceUrl: `${appUrl()}/agents/${agent.id}`,
    rating: stats.rating,
    totalRentals: stats.totalRentals,
    createdAt: agent.createdAt.toISOString(),
  };
}

export type AgentView = ReturnType<typeof toAgentView>;
