import type { AvailabilityTerms } from "@/lib/availability/availability-terms";
import { formatCount, formatPercent } from "@/lib/format/number";
import { plural } from "@/lib/format/plural";

/** "99.5%": a share in hundredths of a percent, rounded down, as pages and messages show it. */
export function formatUptime(basisPoints: number): string {
  return formatPercent(basisPoints / 100);
}

/**
 * "The agent was up for 75% of the rental's 60 minutes (15 down), against its 99% uptime
 * guarantee." — the measured availability in the words of the e-mails and bot messages.
 */
export function uptimeSentence(terms: AvailabilityTerms): string {
  const guarantee = formatPercent(terms.guaranteePermille / 10);
  const minutes = plural(terms.minutesElapsed, "minute");
  if (terms.uptimeBasisPoints === null) return `No minute of the rental has begun yet; its uptime guarantee is ${guarantee}.`;
  const down = terms.minutesDown === 0 ? "none down" : `${formatCount(terms.minutesDown)} down`;
  return `The agent was up for ${formatUptime(terms.uptimeBasisPoints)} of the rental's ${minutes} (${down}), against its ${guarantee} uptime guarantee.`;
}
