import "server-only";
import { db } from "@/lib/db";
import { describeWebhookFailure } from "@/lib/format/webhook-failure";

export const DELIVERY_OUTCOMES = ["all", "failed", "succeeded"] as const;
export type DeliveryOutcome = (typeof DELIVERY_OUTCOMES)[number];
export const DELIVERIES_SHOWN = 100;

export type Delivery = {
  /** Unique in the log: the kind and the row's id. */
  key: string;
  at: Date;
  kind: "message" | "health_check" | "rental_event";
  /** Where a message came from (API, Telegram…); "Health check" for a check; the event for a rental event. */
  channel: string;
  ok: boolean;
  /** What the webhook answered (null: no HTTP answer). */
  webhookStatus: number | null;
  latencyMs: number;
  /** Sizes of a message and of its reply; null for health checks and rental events (not recorded). */
  requestBytes: number | null;
  responseBytes: number | null;
  /** Why it failed, in words; null when it did not. */
  reason: string | null;
};

type Row = Omit<Delivery, "reason"> & { error: string | null };

/**
 * One listing's latest calls to its webhook, newest first: renter messages (from chat_calls, on
 * every channel), health checks and rental events (a rental.extended call, from rental_extensions),
 * each with its outcome and, for a failure, the reason in words. Never message text: the service
 * does not keep it. Messages and checks read their (agent_id, created_at) index, newest first, so
 * the cost stays flat as the tables grow; extensions are found through the listing's rentals.
 */
export async function listAgentDeliveries(
  agentId: string,
  outcome: DeliveryOutcome = "all",
  limit = DELIVERIES_SHOWN,
): Promise<Delivery[]> {
  const okFilter = outcome === "all" ? null : outcome === "succeeded";
  const rows = await db.$queryRaw<Row[]>`
    (SELECT 'm' || id AS "key", created_at AS "at", 'message' AS "kind", channel::text AS "channel", status_code < 400 AS "ok",
            webhook_status AS "webhookStatus", latency_ms AS "latencyMs", request_bytes AS "requestBytes",
            response_bytes AS "responseBytes", error
       FROM chat_calls
      WHERE agent_id = ${agentId}::uuid AND (${okFilter}::boolean IS NULL OR (status_code < 400) = ${okFilter}::boolean)
      ORDER BY created_at DESC LIMIT ${limit})
    UNION ALL
    (SELECT 'h' || id, created_at, 'health_check', 'Health check', ok, status_code, latency_ms, NULL, NULL, error
       FROM health_checks
      WHERE agent_id = ${agentId}::uuid AND (${okFilter}::boolean IS NULL OR ok = ${okFilter}::boolean)
      ORDER BY created_at DESC LIMIT ${limit})
    UNION ALL
    (SELECT 'e' || e.id, e.notify_attempted_at, 'rental_event', 'Rental extended', e.notify_error IS NULL, e.notify_status_code,
            e.notify_latency_ms, NULL, NULL, e.notify_error
       FROM rental_extensions e JOIN rentals r ON r.id = e.rental_id
      WHERE r.agent_id = ${agentId}::uuid AND e.notify_attempted_at IS NOT NULL
        AND (${okFilter}::boolean IS NULL OR (e.notify_error IS NULL) = ${okFilter}::boolean)
      ORDER BY e.notify_attempted_at DESC LIMIT ${limit})
    ORDER BY "at" DESC LIMIT ${limit}`;
  return rows.map(({ error, ...row }) => ({ ...row, reason: row.ok ? null : failureReason(row, error) }));
}

// A failure in words. Messages keep the sentence the renter got; older rows (before it was kept),
// health checks and rental events are put in words from what was recorded, as the Test connection says them.
function failureReason(row: Omit<Row, "error">, error: string | null): string {
  if (row.kind === "message" && error) return error;
  return describeWebhookFailure({ statusCode: row.webhookStatus, error }).reason;
}
