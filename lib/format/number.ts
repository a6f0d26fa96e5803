import { LOCALE } from "@/lib/format/locale";

/** "1,204": a whole number as the pages show it. */
export function formatCount(count: number): string {
  return count.toLocaleString(LOCALE);
}

/** "99.5%": a percentage of 0–100, to at most 2 decimals. */
export function formatPercent(value: number): string {
  return `${value.toLocaleString(LOCALE, { maximumFractionDigits: 2 })}%`;
}
