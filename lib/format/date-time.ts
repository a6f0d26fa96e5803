import { LOCALE } from "@/lib/format/locale";

// UTC everywhere, said every time: server-rendered pages, e-mails and bot messages then show the
// same words for the same moment, and a page never changes after it loads in another time zone.
const DATE_TIME = new Intl.DateTimeFormat(LOCALE, { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });
const DATE = new Intl.DateTimeFormat(LOCALE, { dateStyle: "medium", timeZone: "UTC" });

/** "23 Nov 2026, 14:05 UTC" */
export function formatDateTime(date: Date): string {
  return `${DATE_TIME.format(date)} UTC`;
}

/** "23 Nov 2026 (UTC)": a calendar day, of the UTC calendar. */
export function formatDate(date: Date): string {
  return `${DATE.format(date)} (UTC)`;
}

const CLOCK = new Intl.DateTimeFormat(LOCALE, { hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone: "UTC" });
const DAY_CLOCK = new Intl.DateTimeFormat(LOCALE, {
  day: "numeric",
  month: "short",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
  timeZone: "UTC",
});

/**
 * "07:14", or with the day "23 Nov, 07:14": a minute of the UTC clock, for lists of times where
 * the sentence says "UTC" once (a rental's down minutes).
 */
export function formatClock(date: Date, withDay = false): string {
  return (withDay ? DAY_CLOCK : CLOCK).format(date);
}
