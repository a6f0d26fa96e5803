// The marketplace's own words: sort orders and why an agent cannot be rented. Amounts, durations,
// dates, counts and categories are formatted by lib/format/.
import type { NotRentableReason } from "@/lib/agents/to-marketplace-agent";
import type { MarketplaceSort } from "@/lib/schemas/marketplace-query";

export const SORT_LABEL: Record<MarketplaceSort, string> = {
  relevance: "Best match",
  "price-asc": "Price: low to high",
  "price-desc": "Price: high to low",
  rating: "Highest rated",
  popular: "Most rented",
  newest: "Newest",
};

export const NOT_RENTABLE: Record<NotRentableReason, { badge: string; explanation: string }> = {
  offline: {
    badge: "Offline",
    explanation:
      "This agent's webhook failed its latest health check, so new rentals are paused. Checks run every 15 minutes and the agent becomes rentable again as soon as its webhook answers.",
  },
  "no-webhook": {
    badge: "Not connected",
    explanation:
      "The owner has not connected this agent's webhook yet, so it could not answer your messages. It cannot be rented until it is connected.",
  },
  "no-price": {
    badge: "No price",
    explanation: "The owner has not set a price for any duration, so this agent cannot be rented.",
  },
};
