import "server-only";
import { db } from "@/lib/db";

const DAY_MS = 86_400_000;
/**
 * Uptime is measured over the last 7 days of scheduled health checks (one every 15 minutes: ~670).
 * The owner's own connection tests are left out: a mistyped URL tried three times while setting a
 * listing up says nothing of how the agent serves renters.
 */
export const UPTIME_DAYS = 7;
/** Replies are measured over the last 30 days of messages. */
export const REPLY_DAYS = 30;
/** Fewer samples than these say too little: the page says "not enough data yet" instead. */
export const MIN_CHECKS = 3;
const MIN_CALLS = 5;

/** What the service measured of a listing; null where it has too few samples to say. */
export type Reliability = {
  /** Share of health checks passed, %, over UPTIME_DAYS. */
  uptime: number | null;
  /** Median reply time of messages that reached the agent, ms, over REPLY_DAYS. */
  medianMs: number | null;
  /** Share of messages answered (not a 5xx: the agent failed, timed out or was unreachable), %. */
  successRate: number | null;
};

type CheckRow = { agent_id: string; ok: number; checks: number };
type CallRow = { agent_id: string; calls: number; answered: number; p50: number | null };

const percent = (part: number, whole: number) => Math.round((1000 * part) / whole) / 10;

/** Reliability of many listings in two grouped queries, never one per listing. */
export async function loadReliability(agentIds: string[], now: Date): Promise<Map<string, Reliability>> {
  if (agentIds.length === 0) return new Map();
  const [checks, calls] = await Promise.all([
    db.$queryRaw<CheckRow[]>`
      SELECT agent_id::text, count(*) FILTER (WHERE ok)::int AS ok, count(*)::int AS checks
        FROM health_checks
       WHERE agent_id = ANY(${agentIds}::uuid[]) AND trigger = 'schedule'
         AND created_at > ${new Date(now.getTime() - UPTIME_DAYS * DAY_MS)}
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
          uptime: check && check.checks >= MIN_CHECKS ? percent(check.ok, check.checks) : null,
          medianMs: enoughCalls && call.p50 !== null ? Math.round(call.p50) : null,
          successRate: enoughCalls ? percent(call.answered, call.calls) : null,
        },
      ];
    }),
  );
}
