import "server-only";
import { db } from "@/lib/db";

export const SERIES_DAYS = 30;
const DAY_MS = 86_400_000;

export type DayFigures = {
  /** UTC calendar day, YYYY-MM-DD. */
  date: string;
  /** Paid rentals that started this day (awaiting payment and cancelled ones left out). */
  rentals: number;
  /** Sum of those rentals' prices, micro-USDC (what the owner earns from them, before release). */
  revenueMicro: bigint;
  /** Renter messages (POST /v1/chat) to the account's agents. */
  chatCalls: number;
  /** Of those, answered with a 5xx (webhook failed, timed out or unreachable). */
  chatErrors: number;
  /** Webhook round trip of calls that reached the webhook, in ms; null on a day without any. */
  latencyP50: number | null;
  latencyP95: number | null;
  /** Share of scheduled health checks that passed, % (the owner's connection tests left out); null when none ran. */
  uptime: number | null;
  healthChecks: number;
};

type RentalDay = { day: string; rentals: number; revenue: bigint };
type CallDay = { day: string; calls: number; errors: number; p50: number | null; p95: number | null };
type CheckDay = { day: string; ok: number; checks: number };

/** The first instant (UTC midnight) of the window of `days` calendar days ending with `now`'s day. */
export function seriesStart(now: Date, days = SERIES_DAYS): Date {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return new Date(today - (days - 1) * DAY_MS);
}

/**
 * Day-by-day figures of one account's agents over the last `days` UTC calendar days (today
 * included), every day present (zeros, or null where a figure has no sample). Each table is
 * read once, grouped by day in SQL.
 */
export async function loadOwnerTimeSeries(ownerId: string, options: { now?: Date; days?: number } = {}): Promise<DayFigures[]> {
  const now = options.now ?? new Date();
  const days = options.days ?? SERIES_DAYS;
  const from = seriesStart(now, days);
  const to = new Date(from.getTime() + days * DAY_MS);
  const [rentals, calls, checks] = await Promise.all([
    db.$queryRaw<RentalDay[]>`
      SELECT to_char(r.starts_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day,
             count(*)::int AS rentals,
             coalesce(sum(r.price_micro_usdc), 0)::bigint AS revenue
        FROM rentals r JOIN agents a ON a.id = r.agent_id
       WHERE a.owner_id = ${ownerId}::uuid AND r.status IN ('active', 'completed', 'disputed') AND NOT r.trial
         AND r.starts_at >= ${from} AND r.starts_at < ${to}
       GROUP BY 1`,
    db.$queryRaw<CallDay[]>`
      SELECT to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day,
             count(*)::int AS calls,
             count(*) FILTER (WHERE c.status_code >= 500)::int AS errors,
             percentile_cont(0.5) WITHIN GROUP (ORDER BY c.latency_ms) FILTER (WHERE c.webhook_status IS NOT NULL) AS p50,
             percentile_cont(0.95) WITHIN GROUP (ORDER BY c.latency_ms) FILTER (WHERE c.webhook_status IS NOT NULL) AS p95
        FROM chat_calls c JOIN agents a ON a.id = c.agent_id
       WHERE a.owner_id = ${ownerId}::uuid AND c.created_at >= ${from} AND c.created_at < ${to}
         -- Paid calls only: a free trial's are counted apart (loadOwnerStats' trials.calls).
         AND NOT EXISTS (SELECT 1 FROM rentals r WHERE r.id = c.rental_id AND r.trial)
       GROUP BY 1`,
    db.$queryRaw<CheckDay[]>`
      SELECT to_char(h.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day,
             count(*) FILTER (WHERE h.ok)::int AS ok,
             count(*)::int AS checks
        FROM health_checks h JOIN agents a ON a.id = h.agent_id
       WHERE a.owner_id = ${ownerId}::uuid AND h.trigger = 'schedule' AND h.created_at >= ${from} AND h.created_at < ${to}
       GROUP BY 1`,
  ]);
  const rentalsOn = new Map(rentals.map((r) => [r.day, r]));
  const callsOn = new Map(calls.map((c) => [c.day, c]));
  const checksOn = new Map(checks.map((h) => [h.day, h]));
  return Array.from({ length: days }, (_, i) => {
    const date = new Date(from.getTime() + i * DAY_MS).toISOString().slice(0, 10);
    const r = rentalsOn.get(date);
    const c = callsOn.get(date);
    const h = checksOn.get(date);
    return {
      date,
      rentals: r?.rentals ?? 0,
      revenueMicro: r ? BigInt(r.revenue) : 0n,
      chatCalls: c?.calls ?? 0,
      chatErrors: c?.errors ?? 0,
      latencyP50: c?.p50 == null ? null : Math.round(c.p50),
      latencyP95: c?.p95 == null ? null : Math.round(c.p95),
      uptime: h?.checks ? Math.round((10_000 * h.ok) / h.checks) / 100 : null,
      healthChecks: h?.checks ?? 0,
    };
  });
}
