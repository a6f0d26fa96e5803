import { plural } from "@/lib/format/plural";
import { formatSpan } from "@/lib/format/span";

// The time left of a rental, one way everywhere (checkout, dashboard, bots), as formatSpan writes
// it (a live countdown does not jitter); "ended" at or below zero.
export function formatTimeLeft(ms: number): string {
  return ms <= 0 ? "ended" : formatSpan(ms);
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
