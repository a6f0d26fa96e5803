import { plural } from "@/lib/format/plural";

// The time left of a rental, one way everywhere (checkout, dashboard, bots). Two units at most,
// so it reads at a glance and a live countdown does not jitter: "29 days 23 hours",
// "5 hours 4 minutes", "4 minutes 8 seconds"; "ended" at or below zero.
export function formatTimeLeft(ms: number): string {
  if (ms <= 0) return "ended";
  const total = Math.floor(ms / 1000);
  const days = Math.floor(total / 86_400);
  const hours = Math.floor((total % 86_400) / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  if (days > 0) return `${plural(days, "day")} ${plural(hours, "hour")}`;
  if (hours > 0) return `${plural(hours, "hour")} ${plural(minutes, "minute")}`;
  return `${plural(minutes, "minute")} ${plural(seconds, "second")}`;
}

/** The same as a sentence for screen readers, to the minute: "2 days, 3 hours and 4 minutes left." */
export function describeTimeLeft(ms: number): string {
  if (ms <= 0) return "The rental has ended.";
  const total = Math.floor(ms / 1000);
  const units: [number, string][] = [
    [Math.floor(total / 86_400), "day"],
    [Math.floor((total % 86_400) / 3600), "hour"],
    [Math.floor((total % 3600) / 60), "minute"],
  ];
  const parts = units.filter(([n]) => n > 0).map(([n, unit]) => plural(n, unit));
  if (parts.length === 0) return "Less than a minute left.";
  const text = parts.length > 1 ? `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}` : parts[0];
  return `${text} left.`;
}
