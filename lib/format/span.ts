import { plural } from "@/lib/format/plural";

// A length of time, two units at most, so it reads at a glance: "29 days 23 hours",
// "5 hours 4 minutes", "4 minutes 8 seconds" (a rental's time left, a dispute's age, a downtime).
export function formatSpan(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const days = Math.floor(total / 86_400);
  const hours = Math.floor((total % 86_400) / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  if (days > 0) return `${plural(days, "day")} ${plural(hours, "hour")}`;
  if (hours > 0) return `${plural(hours, "hour")} ${plural(minutes, "minute")}`;
  return `${plural(minutes, "minute")} ${plural(seconds, "second")}`;
}
