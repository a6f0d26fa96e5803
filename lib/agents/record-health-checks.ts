import "server-only";
import { db } from "@/lib/db";
import type { HealthResult } from "@/lib/webhooks/check-webhook-health";

// schedule: the 15-minute sweep; connect: the owner's Test connection; checkout: the check right
// before a quote (lib/rentals/probe-before-quote.ts). Uptime and the owner's stats read only
// `schedule`: the others happen when someone asks, not at regular times.
export type HealthTrigger = "schedule" | "connect" | "checkout";
export type HealthCheckRow = HealthResult & { agentId: string; createdAt: Date };

// Every check is kept (time, outcome, latency): uptime and the owner's stats are computed from them.

/**
 * Records a batch of checks, one row each, in one statement. Raw SQL over arrays, so the statement
 * is the same whatever the batch size: a `createMany` of 500 rows had Prisma's query compiler plan
 * every row (about 20 MB allocated per batch, which was most of a sweep's memory).
 */
export async function recordHealthChecks(rows: HealthCheckRow[], trigger: HealthTrigger): Promise<void> {
  if (rows.length === 0) return;
  await db.$executeRaw`
    INSERT INTO health_checks (agent_id, trigger, created_at, ok, status_code, error, latency_ms)
    SELECT agent_id, ${trigger}, created_at, ok, status_code, error, latency_ms
    FROM unnest(
      ${rows.map((row) => row.agentId)}::uuid[], ${rows.map((row) => row.createdAt)}::timestamptz[],
      ${rows.map((row) => row.ok)}::boolean[], ${rows.map((row) => row.statusCode)}::int[],
      ${rows.map((row) => row.error)}::text[], ${rows.map((row) => row.latencyMs)}::int[]
    ) AS row (agent_id, created_at, ok, status_code, error, latency_ms)`;
}

/** One check (the test connection's, a checkout's), as it happened at `createdAt` (default now). */
export function recordHealthCheck(agentId: string, result: HealthResult, trigger: HealthTrigger, createdAt = new Date()): Promise<void> {
  return recordHealthChecks([{ agentId, createdAt, ...result }], trigger);
}
