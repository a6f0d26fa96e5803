import { plural } from "@/lib/format/plural";

/**
 * A length of time in one unit, rounded, as a reminder says it: "10 minutes", "1 hour", "1 day"
 * (a reminder sent a few seconds late still says the lead it was meant for; at least "1 minute").
 */
export function formatRoughSpan(ms: number): string {
  const minutes = Math.max(1, Math.round(ms / 60_000));
  if (minutes < 60) return plural(minutes, "minute");
  const hours = Math.round(minutes / 60);
  if (hours < 24) return plural(hours, "hour");
  return plural(Math.round(hours / 24), "day");
}
