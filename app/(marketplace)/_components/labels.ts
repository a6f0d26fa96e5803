// Words the marketplace pages show for the values the data holds.
import type { NotRentableReason } from "@/lib/agents/to-marketplace-agent";
import type { DurationType } from "@/lib/generated/prisma/enums";
import type { MarketplaceSort } from "@/lib/schemas/marketplace-query";

export const DURATION_LABEL: Record<DurationType, { per: string; one: string; length: string }> = {
  hour: { per: "per hour", one: "1 hour", length: "60 minutes" },
  day: { per: "per day", one: "1 day", length: "24 hours" },
  month: { per: "per month", one: "1 month", length: "30 days" },
};

export const SORT_LABEL: Record<MarketplaceSort, string> = {
  relevance: "Best match",
  "price-asc": "Price: low to high",
  "price-desc": "Price: high to low",
  rating: "Highest rated",
  popular: "Most rented",
  newest: "Newest",
};

export function categoryLabel(category: string): string {
  return category.charAt(0).toUpperCase() + category.slice(1);
}

export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count.toLocaleString("en-US")} ${count === 1 ? one : many}`;
}

export const NOT_RENTABLE: Record<NotRentableReason, { badge: string; explanation: string }> = {
  offline: {
    badge: "Offline",
    explanation:
      "This agent's webhook failed its latest health check, so new rentals are paused. Checks run every 15 minutes and the agent becomes rentable again as soon as its webhook answers.",
  },
  "no-webhook": {
    badge: "Not connected",
    explanation: "The owner has not connected this agent's webhook yet, so it could not answer your messages. It cannot be rented until it is connected.",
  },
  "no-price": {
    badge: "No price",
    explanation: "The owner has not set a price for any duration, so this agent cannot be rented.",
  },
};
