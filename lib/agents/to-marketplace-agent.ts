import { listingBasics } from "@/lib/agents/listing-basics";
import type { Reliability } from "@/lib/agents/load-reliability";
import type { ListingStats } from "@/lib/agents/to-agent-view";
import type { Channel, DurationType } from "@/lib/generated/prisma/enums";

export const DURATIONS = ["hour", "day", "month"] as const satisfies readonly DurationType[];

// The columns of a listing the public may see: never the webhook URL or token, only whether one
// is connected.
export type MarketplaceAgentRow = {
  id: string;
  name: string;
  description: string;
  category: string;
  skills: string[];
  channels: Channel[];
  pricePerHour: bigint | null;
  pricePerDay: bigint | null;
  pricePerMonth: bigint | null;
  /** One answer sold over x402; null: not sold per message. Not a rental price. */
  pricePerMessage: bigint | null;
  /** Free messages each signed-in renter may try (docs/trials.md); null: no trial offered. */
  trialMessages: number | null;
  status: string;
  webhookConnected: boolean;
  createdAt: Date;
  /** The owner's public display name, if they set one (never their e-mail or wallet). */
  ownerName: string | null;
  /** The uploaded picture's version (its URL's ?v=), or null: pages then draw one. */
  avatarVersion: string | null;
};

// Why a listing cannot be rented, in words for the renter; null when it can.
export type NotRentableReason = "offline" | "no-webhook" | "no-price";

export function notRentableReason(
  agent: Pick<MarketplaceAgentRow, "status" | "webhookConnected" | "pricePerHour" | "pricePerDay" | "pricePerMonth">,
): NotRentableReason | null {
  if (!agent.webhookConnected) return "no-webhook";
  if (agent.status !== "available") return "offline";
  if (agent.pricePerHour === null && agent.pricePerDay === null && agent.pricePerMonth === null) return "no-price";
  return null;
}

// A listing as the marketplace shows it. Prices stay micro-USDC (bigint) until they are printed.
export function toMarketplaceAgent(agent: MarketplaceAgentRow, stats: ListingStats, reliability: Reliability) {
  const reason = notRentableReason(agent);
  return {
    ...listingBasics(agent),
    prices: { hour: agent.pricePerHour, day: agent.pricePerDay, month: agent.pricePerMonth } satisfies Record<DurationType, bigint | null>,
    pricePerMessage: agent.pricePerMessage,
    trialMessages: agent.trialMessages,
    rating: stats.rating,
    totalRentals: stats.totalRentals,
    reliability,
    ownerName: agent.ownerName,
    avatarVersion: agent.avatarVersion,
    rentable: reason === null,
    notRentableReason: reason,
    createdAt: agent.createdAt,
  };
}

export type MarketplaceAgent = ReturnType<typeof toMarketplaceAgent>;

// The durations a listing can be rented for, in display order.
export function pricedDurations(agent: Pick<MarketplaceAgent, "prices">): { duration: DurationType; price: bigint }[] {
  return DURATIONS.flatMap((duration) => {
    const price = agent.prices[duration];
    return price === null ? [] : [{ duration, price }];
  });
}
