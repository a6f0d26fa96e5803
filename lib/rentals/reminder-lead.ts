import type { DurationType } from "@/lib/rentals/durations";

const MINUTE = 60_000;

/**
 * How long before its end a rental's renter is reminded, by its duration type (issue 29): read by
 * the reminder cron (lib/rentals/remind-ending-rentals.ts) and the renters' docs page.
 */
export const REMINDER_LEAD_MS: Record<DurationType, number> = { hour: 10 * MINUTE, day: 60 * MINUTE, month: 24 * 60 * MINUTE };
