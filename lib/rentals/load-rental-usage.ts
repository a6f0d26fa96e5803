import "server-only";
import { db } from "@/lib/db";
import type { Channel } from "@/lib/generated/prisma/enums";

const DAY_MS = 86_400_000;
/** A month's rental spans at most 31 UTC calendar days. */
const MAX_DAYS = 31;

export type RentalUsage = {
  /** Every UTC calendar day from the rental's start to today or its end, whichever is first. */
  days: { date: string; messages: number; errors: number }[];
  messages: number;
  /** Messages answered with a 5xx: the agent's webhook failed, timed out or could not be reached. */
  errors: number;
  /** Median reply time of the messages that reached the agent, ms; null before any did. */
  medianMs: number | null;
  /** Messages per channel they came from (the API, the playground, a chat bot); only channels used. */
  byChannel: Partial<Record<Channel, number>>;
};

type DayRow = { day: string; messages: number; errors: number };
type TotalRow = { channel: Channel | null; messages: number; errors: number; p50: number | null };

/**
 * The renter's view of a rental's use, from the call records (sizes, status and latency; never
 * the text), the API and every chat channel alike. Two queries, both on the rental's index.
 */
export async function loadRentalUsage(rental: { id: string; startsAt: Date; endsAt: Date }, now: Date): Promise<RentalUsage> {
  const first = Date.UTC(rental.startsAt.getUTCFullYear(), rental.startsAt.getUTCMonth(), rental.startsAt.getUTCDate());
  const last = Math.min(now.getTime(), rental.endsAt.getTime() - 1);
  const count = Math.max(1, Math.min(MAX_DAYS, Math.floor((last - first) / DAY_MS) + 1));
  const [days, totals] = await Promise.all([
    db.$queryRaw<DayRow[]>`
      SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day,
             count(*)::int AS messages,
             count(*) FILTER (WHERE status_code >= 500)::int AS errors
        FROM chat_calls
       WHERE rental_id = ${rental.id}::uuid
       GROUP BY 1`,
    db.$queryRaw<TotalRow[]>`
      SELECT channel, count(*)::int AS messages,
             count(*) FILTER (WHERE status_code >= 500)::int AS errors,
             percentile_cont(0.5) WITHIN GROUP (ORDER BY latency_ms) FILTER (WHERE webhook_status IS NOT NULL) AS p50
        FROM chat_calls
       WHERE rental_id = ${rental.id}::uuid
       GROUP BY ROLLUP (channel)`,
  ]);
  const on = new Map(days.map((d) => [d.day, d]));
  const total = totals.find((t) => t.channel === null);
  return {
    days: Array.from({ length: count }, (_, i) => {
      const date = new Date(first + i * DAY_MS).toISOString().slice(0, 10);
      return { date, messages: on.get(date)?.messages ?? 0, errors: on.get(date)?.errors ?? 0 };
    }),
    messages: total?.messages ?? 0,
    errors: total?.errors ?? 0,
    medianMs: total?.p50 == null ? null : Math.round(total.p50),
    byChannel: Object.fromEntries(totals.filter((t) => t.channel !== null).map((t) => [t.channel, t.messages])),
  };
}
