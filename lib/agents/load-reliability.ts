import "server-only";
import { loadRentedMinutes } from "@/lib/availability/load-rented-minutes";
import type { RentedMinutes } from "@/lib/availability/rented-minutes";
import { db } from "@/lib/db";

const DAY_MS = 86_400_000;
/**
 * Uptime is measured over the last 7 days: from the minutes of the agent's rentals, each measured
 * every minute while it ran (lib/availability), once they hold at least MIN_RENTED_MINUTES;
 * otherwise from the scheduled health checks (one every 15 minutes: ~670). The owner's own
 * connection tests are left out: a mistyped URL tried three times while setting a listing up says
 * nothing of how the agent serves renters.
 */
export const UPTIME_DAYS = 7;
/** An hour of rentals in the window: fewer minutes say less than the health checks do. */
export const MIN_RENTED_MINUTES = 60;
/** Replies are measured over the last 30 days of messages. */
export const REPLY_DAYS = 30;
/** Fewer samples than these say too little: the page says "not enough data yet" instead. */
export const MIN_CHECKS = 3;
const MIN_CALLS = 5;

/** Where an uptime comes from: every minute of the agent's rentals, or the scheduled health checks. */
export type UptimeSource = "rentalMinutes" | "healthChecks";

/** What the service measured of a listing; null where it has too few samples to say. */
export type Reliability = {
  /** Share of rented minutes up, or else of health checks passed, %, over UPTIME_DAYS. */
  uptime: number | null;
  /** What `uptime` was measured from (null with it). */
  uptimeSource: UptimeSource | null;
  /** Median reply time of messages that reached the agent, ms, over REPLY_DAYS. */
  medianMs: number | null;
  /** Share of messages answered (not a 5xx: the agent failed, timed out or was unreachable), %. */
  successRate: number | null;
};

type CheckRow = { agent_id: string; ok: number; checks: number };
type CallRow = { agent_id: string; calls: number; answered: number; p50: number | null };

const percent = (part: number, whole: number) => Math.round((1000 * part) / whole) / 10;

/**
 * The uptime rule, shared by the marketplace and the owner's stats: the rented minutes' share up
 * when there are at least MIN_RENTED_MINUTES of them (rounded down, as the settlement rounds: a
 * down minute never reads as 100%), else the share of scheduled health checks passed (from
 * MIN_CHECKS on), else nothing.
 */
export function measuredUptime(
  minutes: RentedMinutes | undefined,
  checks: { ok: number; checks: number } | undefined,
  decimals = 1,
): { uptime: number | null; uptimeSource: UptimeSource | null } {
  const scale = 10 ** decimals;
  if (minutes && minutes.elapsed >= MIN_RENTED_MINUTES) {
    return {
      uptime: Math.floor((100 * scale * (minutes.elapsed - minutes.down)) / minutes.elapsed) / scale,
      uptimeSource: "rentalMinutes",
    };
  }
  if (checks && checks.checks >= MIN_CHECKS) {
    return { uptime: Math.round((100 * scale * checks.ok) / checks.checks) / scale, uptimeSource: "healthChecks" };
  }
  return { uptime: null, uptimeSource: null };
}

/** Reliability of many listings in three grouped queries, never one per listing. */
export async function loadReliability(agentIds: string[], now: Date): Promise<Map<string, Reliability>> {
  if (agentIds.length === 0) return new Map();
  const since = new Date(now.getTime() - UPTIME_DAYS * DAY_MS);
  const [minutes, checks, calls] = await Promise.all([
    loadRentedMinutes({ agentIds }, since, now),
    db.$queryRaw<CheckRow[]>`
      SELECT agent_id::text, count(*) FILTER (WHERE ok)::int AS ok, count(*)::int AS checks
        FROM health_checks
       WHERE agent_id = ANY(${agentIds}::uuid[]) AND trigger = 'schedule'
         AND created_at > ${since}
       GROUP BY agent_id`,
    db.$queryRaw<CallRow[]>`
      SELECT agent_id::text, count(*)::int AS calls, count(*) FILTER (WHERE status_code < 500)::int AS answered,
             percentile_cont(0.5) WITHIN GROUP (ORDER BY latency_ms) FILTER (WHERE webhook_status IS NOT NULL) AS p50
        FROM chat_calls
       WHERE agent_id = ANY(${agentIds}::uuid[]) AND created_at > ${new Date(now.getTime() - REPLY_DAYS * DAY_MS)}
       GROUP BY agent_id`,
  ]);
  const checksOf = new Map(checks.map((c) => [c.agent_id, c]));
  const callsOf = new Map(calls.map((c) => [c.agent_id, c]));
  return new Map(
    agentIds.map((id) => {
      const check = checksOf.get(id);
      const call = callsOf.get(id);
      const enoughCalls = call !== undefined && call.calls >= MIN_CALLS;
      return [
        id,
        {
          ...measuredUptime(minutes.get(id), check),
          medianMs: enoughCalls && call.p50 !== null ? Math.round(call.p50) : null,
          successRate: enoughCalls ? percent(call.answered, call.calls) : null,
        },
      ];
    }),
  );
}
