import "server-only";
import { type HealthCheckBatchResult, runHealthCheckBatch } from "@/lib/agents/run-health-check-batch";
import { openWebhookHost } from "@/lib/agents/webhook-credentials";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { Prisma } from "@/lib/generated/prisma/client";
import { batchId } from "@/lib/queue/batch-id";
import { forgetOldBatches } from "@/lib/queue/claim-batch";
import { batchLimits, cutHostBatches, type HostedAgent } from "@/lib/queue/cut-host-batches";
import { dispatchBatches, type QueueBatch, type Transport } from "@/lib/queue/dispatch-batches";
import { flowControlKey } from "@/lib/queue/flow-control-key";
import type { HealthCheckBatch } from "@/lib/schemas/queue-batches";

export type HealthCheckRunOptions = {
  /** The claim time: agents last claimed 14 minutes or more before it are due. */
  now?: Date;
  /** Checks in flight at once: per run in-process, per batch when QStash delivers (default HEALTH_CHECK_CONCURRENCY). */
  concurrency?: number;
  /** Stop claiming, and starting checks, when a check could no longer finish inside this (default 250 s). */
  budgetMs?: number;
  /** Agents claimed per query (default 500). */
  batchSize?: number;
  /** Only these agents (tests share one database with other test files). */
  agentIds?: string[];
  /** Milliseconds on a monotonic clock, read for the time budget (default performance.now). */
  clock?: () => number;
  /** Publish the batches to QStash or run them here (default: QStash when it is configured). */
  transport?: Transport;
  /** Checks of one owner's host in flight at once (default 10); more agents than this get batches of their own. */
  hostConcurrency?: number;
  /** Most agents in a batch of one host (default: what hostConcurrency checks in a batch's budget). */
  hostBatchAgents?: number;
  /** Each in-process batch's result, as it finishes (the bench reads the slowest). */
  onBatch?: (result: HealthCheckBatchResult) => void;
};

export type HealthCheckSummary = {
  checked: number;
  healthy: number;
  failed: number;
  wentOffline: number;
  cameOnline: number;
  /** Claimed agents that could not be checked or updated (a bug or the database, not the webhook; logged). */
  errors: number;
  /** Agents still due when the run stopped for its time budget (0 when it finished them all). */
  remaining: number;
  durationMs: number;
  /**
   * Set when the batches went to QStash: this run checked nothing itself (the counts above are 0);
   * each batch reports to QStash as it is delivered.
   */
  dispatched?: { batches: number; agents: number; deduplicated: number };
};

// Every agent is checked once per 15 minutes: it falls due 14 minutes after its last claim (a
// minute early, so that cron jitter cannot push it into the next period). The schedule runs every
// 5 minutes: a run with nothing due costs one query, and agents a run left at its time budget (a
// large fleet) wait 5 minutes, not a whole period.
const DUE_AFTER = "14 minutes";
// Vercel stops a function at 300 s (maxDuration); the margin covers database work and the reply.
const DEFAULT_BUDGET_MS = 250_000;
const DEFAULT_BATCH_SIZE = 500;
// A batch's checks all fit in 60 s at their full timeout: a fifth of the 300 s a delivery of it
// may run (app/api/queue/health-checks), so a slow database or a cold start never cuts one short.
const BATCH_BUDGET_MS = 60_000;
// An owner's host gets at most this many checks at once (docs/operations.md).
const HOST_CONCURRENCY = 10;

type ClaimedAgent = { id: string; webhookUrlCipher: string };

/**
 * One sweep of the periodic health checks (docs/webhooks.md): every due agent with a webhook is
 * claimed, the claimed agents are cut into batches by their owner's webhook host, and the batches
 * are dispatched (lib/queue/dispatch-batches.ts): published to QStash, which delivers each to
 * /api/queue/health-checks (runHealthCheckBatch), or, without QStash, run here. `available` agents
 * that fail go `offline` and `offline` agents that pass come back, each transition e-mailed to the
 * owner once. Claims are atomic (`FOR UPDATE SKIP LOCKED` and the claim time itself), so runs
 * started at once, or repeated, never check an agent twice in a period; a batch checks only agents
 * its round still holds, and a repeated delivery of it nothing.
 */
export async function runHealthChecks(options: HealthCheckRunOptions = {}): Promise<HealthCheckSummary> {
  const clock = options.clock ?? (() => performance.now());
  const started = clock();
  const elapsed = () => clock() - started;
  const now = options.now ?? new Date();
  const concurrency = options.concurrency ?? env.HEALTH_CHECK_CONCURRENCY;
  const budgetMs = options.budgetMs ?? DEFAULT_BUDGET_MS;
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  const timeoutMs = env.HEALTH_CHECK_TIMEOUT_MS;
  const due = dueAgents(now, options.agentIds);
  const summary = { checked: 0, healthy: 0, failed: 0, wentOffline: 0, cameOnline: 0, errors: 0, remaining: 0 };
  // Worst case, every check takes the full timeout: one may start only while it, and one more
  // timeout for the database work and the reply, fit in the budget.
  const canStart = () => elapsed() + 2 * timeoutMs <= budgetMs;
  let outOfTime = false;

  await forgetOldBatches(now);
  const claimed: ClaimedAgent[] = [];
  for (;;) {
    if (!canStart()) {
      outOfTime = true;
      break;
    }
    const batch = await claimDueAgents(due, now, batchSize);
    claimed.push(...batch);
    if (batch.length < batchSize) break;
  }

  const limits = batchLimits({
    timeoutMs,
    concurrency,
    hostConcurrency: options.hostConcurrency ?? HOST_CONCURRENCY,
    batchBudgetMs: BATCH_BUDGET_MS,
  });
  if (options.hostBatchAgents) limits.hostBatchAgents = options.hostBatchAgents;
  const batches = toQueueBatches(cutHostBatches(claimed.map(hostOf), limits), now);
  const dispatched = await dispatchBatches(
    "health-checks",
    batches,
    {
      concurrency,
      run: async (body, context) => {
        const result = await runHealthCheckBatch(body, { ...context, canStart });
        options.onBatch?.(result);
        return result;
      },
    },
    options.transport,
  );

  if (dispatched.transport === "qstash") {
    const failedAgents = dispatched.failed.flatMap((batch) => (batch.body as HealthCheckBatch).agents);
    if (failedAgents.length > 0) {
      await releaseClaims(failedAgents, now);
      outOfTime = true;
    }
    const remaining = outOfTime ? await countDueAgents(due) : 0;
    return {
      ...summary,
      remaining,
      durationMs: Math.round(elapsed()),
      dispatched: {
        batches: dispatched.published,
        agents: claimed.length - failedAgents.length,
        deduplicated: dispatched.deduplicated,
      },
    };
  }

  for (const result of dispatched.results) {
    for (const key of ["checked", "healthy", "failed", "wentOffline", "cameOnline", "errors"] as const) summary[key] += result[key];
    if (result.released > 0) outOfTime = true;
  }
  if (outOfTime) {
    summary.remaining = await countDueAgents(due);
    if (summary.remaining > 0) {
      console.warn(
        `[health-checks] stopped at the ${budgetMs} ms budget with ${summary.remaining} agents still due; ` +
          "raise HEALTH_CHECK_CONCURRENCY, run the cron more often or configure QStash (docs/operations.md).",
      );
    }
  }
  return { ...summary, durationMs: Math.round(elapsed()) };
}

// The host is read from the stored URL (decrypted here, only its hostname kept): ports of one
// hostname are one owner's machine. A URL that no longer decrypts makes no request: no host.
function hostOf(agent: ClaimedAgent): HostedAgent {
  const host = openWebhookHost(agent.id, agent.webhookUrlCipher);
  return { id: agent.id, host: host === null ? null : new URL(`http://${host}`).hostname };
}

function toQueueBatches(batches: ReturnType<typeof cutHostBatches>, round: Date): QueueBatch<HealthCheckBatch>[] {
  return batches.map((batch) => ({
    body: {
      id: batchId("health-checks", round, batch.agents),
      round: round.toISOString(),
      agents: batch.agents,
      concurrency: batch.concurrency,
    },
    hostKey: batch.host === null ? null : flowControlKey(batch.host),
  }));
}

function dueAgents(now: Date, agentIds: string[] | undefined): Prisma.Sql {
  return Prisma.sql`webhook_url_cipher IS NOT NULL AND webhook_token_cipher IS NOT NULL
    AND (last_health_check_at IS NULL OR last_health_check_at <= ${now}::timestamptz - ${DUE_AFTER}::interval)
    ${agentIds ? Prisma.sql`AND id = ANY(${agentIds}::uuid[])` : Prisma.empty}`;
}

// Stamping the claim time is the claim: a concurrent run skips the locked rows, and once this
// statement commits they are no longer due for it. Only the URL is read: its host cuts the batches,
// and each batch reads the rest when it runs.
function claimDueAgents(due: Prisma.Sql, now: Date, size: number): Promise<ClaimedAgent[]> {
  return db.$queryRaw<ClaimedAgent[]>`
    UPDATE agents SET last_health_check_at = ${now}
    WHERE id IN (
      SELECT id FROM agents WHERE ${due}
      ORDER BY last_health_check_at NULLS FIRST
      LIMIT ${size}
      FOR UPDATE SKIP LOCKED
    )
    RETURNING id::text AS id, webhook_url_cipher AS "webhookUrlCipher"`;
}

// Claims of batches QStash did not accept, given back: the next run claims them first.
async function releaseClaims(ids: string[], now: Date): Promise<void> {
  await db.$executeRaw`
    UPDATE agents SET last_health_check_at = NULL WHERE id = ANY(${ids}::uuid[]) AND last_health_check_at = ${now}`;
}

async function countDueAgents(due: Prisma.Sql): Promise<number> {
  const [{ count }] = await db.$queryRaw<[{ count: number }]>`SELECT count(*)::int AS count FROM agents WHERE ${due}`;
  return count;
}
