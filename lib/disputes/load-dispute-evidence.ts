import "server-only";
import { db } from "@/lib/db";
import { measureDowntime } from "@/lib/disputes/measure-downtime";
import { suggestRefund } from "@/lib/disputes/suggest-refund";
import type { Channel } from "@/lib/generated/prisma/enums";

/** How many health checks and calls the evidence lists (the counts cover them all). */
export const EVIDENCE_ROWS = 100;

export type DisputeEvidence = {
  /** The part of the rental the evidence covers: its start to its end, or to now while it runs. */
  from: Date;
  to: Date;
  checks: { at: Date; ok: boolean; statusCode: number | null; error: string | null; latencyMs: number }[];
  checksTotal: number;
  checksFailed: number;
  calls: { at: Date; channel: Channel; statusCode: number; webhookStatus: number | null; latencyMs: number }[];
  callsTotal: number;
  callsFailed: number;
  medianMs: number | null;
  downtimeMs: number;
  rentalMs: number;
  suggestedRefundMicro: bigint;
};

type Rental = { id: string; agentId: string; startsAt: Date; endsAt: Date; priceMicro: bigint };

/**
 * What the service measured of a disputed rental, for the owner and the arbiter: the agent's
 * health checks during the rental (with the last one before it, which gives the state at its
 * start), the rental's chat calls (status, latency, time and channel; the service never stores
 * message text), the downtime measured from the checks and the refund it suggests, pro rata.
 */
export async function loadDisputeEvidence(rental: Rental, now: Date = new Date()): Promise<DisputeEvidence> {
  const from = rental.startsAt;
  const to = new Date(Math.max(from.getTime(), Math.min(rental.endsAt.getTime(), now.getTime())));
  const during = { agentId: rental.agentId, createdAt: { gte: from, lt: to } };
  const [before, checks, checksTotal, checksFailed, calls, callTotals] = await Promise.all([
    db.healthCheck.findFirst({ where: { agentId: rental.agentId, createdAt: { lt: from } }, orderBy: { createdAt: "desc" } }),
    db.healthCheck.findMany({ where: during, orderBy: { createdAt: "asc" }, take: 5_000 }),
    db.healthCheck.count({ where: during }),
    db.healthCheck.count({ where: { ...during, ok: false } }),
    db.chatCall.findMany({ where: { rentalId: rental.id }, orderBy: { createdAt: "desc" }, take: EVIDENCE_ROWS }),
    db.$queryRaw<{ total: number; failed: number; p50: number | null }[]>`
      SELECT count(*)::int AS total, count(*) FILTER (WHERE status_code >= 500)::int AS failed,
             percentile_cont(0.5) WITHIN GROUP (ORDER BY latency_ms) FILTER (WHERE webhook_status IS NOT NULL) AS p50
        FROM chat_calls WHERE rental_id = ${rental.id}::uuid`,
  ]);
  const points = [...(before ? [before] : []), ...checks].map((c) => ({ at: c.createdAt, ok: c.ok }));
  const downtimeMs = measureDowntime(points, from, to);
  const rentalMs = rental.endsAt.getTime() - rental.startsAt.getTime();
  const totals = callTotals[0];
  return {
    from,
    to,
    checks: checks
      .slice(-EVIDENCE_ROWS)
      .reverse()
      .map((c) => ({ at: c.createdAt, ok: c.ok, statusCode: c.statusCode, error: c.error, latencyMs: c.latencyMs })),
    checksTotal,
    checksFailed,
    calls: calls.map((c) => ({
      at: c.createdAt,
      channel: c.channel,
      statusCode: c.statusCode,
      webhookStatus: c.webhookStatus,
      latencyMs: c.latencyMs,
    })),
    callsTotal: totals?.total ?? 0,
    callsFailed: totals?.failed ?? 0,
    medianMs: totals?.p50 === null || totals?.p50 === undefined ? null : Math.round(Number(totals.p50)),
    downtimeMs,
    rentalMs,
    suggestedRefundMicro: suggestRefund(rental.priceMicro, downtimeMs, rentalMs),
  };
}
