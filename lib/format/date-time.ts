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
