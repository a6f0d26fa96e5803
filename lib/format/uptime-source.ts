import type { UptimeSource } from "@/lib/agents/load-reliability";

/**
 * What an uptime figure was measured from (lib/agents/load-reliability.ts, measuredUptime), in the
 * same words on the marketplace and in the owner's dashboard: "99.5%, measured every minute while
 * rented".
 */
export const UPTIME_SOURCE: Record<UptimeSource, string> = {
  rentalMinutes: "measured every minute while rented",
  healthChecks: "from checks every 15 minutes",
};
