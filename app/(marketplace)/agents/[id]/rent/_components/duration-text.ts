import type { Duration } from "@/lib/checkout/checkout-api";

// How the checkout names each rental duration.
export const DURATION_TEXT: Record<Duration, string> = { hour: "1 hour", day: "1 day", month: "1 month (30 days)" };
