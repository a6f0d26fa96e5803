import "server-only";
import { openWebhookHost } from "@/lib/agents/webhook-credentials";
import { type ProbeBatchResult, probeRentalBatch } from "@/lib/availability/probe-rental-batch";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { Prisma } from "@/lib/generated/prisma/client";
import { batchId } from "@/lib/queue/batch-id";
import { batchLimits, cutHostBatches, type HostedAgent } from "@/lib/queue/cut-host-batches";
import { dispatchBatches, type QueueBatch, type Transport } from "@/lib/queue/dispatch-batches";
import { flowControlKey } from "@/lib/queue/flow-control-key";
import type { ProbeBatch } from "@/lib/schemas/queue-batches";

export type ProbeOptions = {
  /** The run's time: its wall-clock minute is the one probed (default: now). */
  now?: Date;
  /** Probes in flight at once: per round in-process, per batch when QStash delivers (default PROBE_CONCURRENCY). */
  concurrency?: number;
  /** A probe slower than this is a failed one (default HEALTH_CHECK_TIMEOUT_MS, at most 10 s). */
  timeoutMs?: number;
  /** Agents claimed per query (default 500). */
  batchSize?: number;
  /** Only these agents (tests share one database with other test files). */
  agentIds?: string[];
  /** Milliseconds on a monotonic clock, for the summary's duration (default performance.now). */
  clock?: () => number;
  /** Publish the batches to QStash or run them here (default: QStash when it is configured). */
  transport?: Transport;
  /** Probes of one owner's host in flight at once (default 10); more agents than this get batches of their own. */
  hostConcurrency?: number;
  /** Most agents in a batch of one host (default: what hostConcurrency probes in a batch's budget). */
  hostBatchAgents?: number;
  /** Each in-process batch's result, as it finishes. */
  onBatch?: (result: ProbeBatchResult) => void;
};

export type ProbeSummary = {
  /** Agents probed this run (each once a minute, however many runs and rentals). */
  probed: number;
  up: number;
  down: number;
  /** Probes the service could not make itself (logged): their minutes stay unmeasured, which counts as up. */
  unmeasured: number;
  /** Rentals whose minute was recorded. */
  rentals: number;
  durationMs: number;
  /**
   * Set when the batches went to QStash: this run probed nothing itself (the counts above are 0);
   * each batch records its minutes as it is delivered.
   */
  dispatched?: { batches: number; agents: number; deduplicated: number };
};

type ClaimedAgent = { id: string; webhookUrlCipher: string | null };

const DEFAULT_BATCH_SIZE = 500;
const MAX_TIMEOUT_MS = 10_000;
// A batch's probes all fit in 30 s at their full timeout (three 10-s rounds): half of the minute a
// delivery of it may run (app/api/queue/probe-rentals) and of the minute it measures.
const BATCH_BUDGET_MS = 30_000;
// An owner's host gets at most this many probes at once (docs/operations.md).
const HOST_CONCURRENCY = 10;

/**
 * One round of the per-minute availability probe (cron `/api/cron/probe-rentals`, every minute;
 * docs/availability.md): every agent with a rental running now is claimed for this wall-clock
 * minute (so overlapping runs, or several servers, probe it once), the claimed agents are cut into
 * batches by their owner's webhook host, and the batches dispatched (lib/queue/dispatch-batches.ts):
 * published to QStash, which delivers each to /api/queue/probe-rentals (probeRentalBatch), or,
 * without QStash, run here. Each agent gets one signed `health_check` through the SSRF-guarded
 * client; each of its running rentals records the minute that holds `now` as measured, and as
 * down when the probe failed (non-2xx, timeout, unreachable, no webhook). The rule on real chat
 * calls is brought up to date for the same rentals. A minute no run probed (the service was down
 * or late) stays unmeasured, which counts as up.
 */
export async function probeRentals(options: ProbeOptions = {}): Promise<ProbeSummary> {
  const clock = options.clock ?? (() => performance.now());
  const started = clock();
  const now = options.now ?? new Date();
  const minute = new Date(Math.floor(now.getTime() / 60_000) * 60_000);
  const concurrency = options.concurrency ?? env.PROBE_CONCURRENCY;
  const timeoutMs = Math.min(options.timeoutMs ?? env.HEALTH_CHECK_TIMEOUT_MS, MAX_TIMEOUT_MS);
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  const summary = { probed: 0, up: 0, down: 0, unmeasured: 0, rentals: 0 };

  const claimed: ClaimedAgent[] = [];
  for (;;) {
    const batch = await claimAgents(now, minute, batchSize, options.agentIds);
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
  const batches: QueueBatch<ProbeBatch>[] = cutHostBatches(claimed.map(hostOf), limits).map((batch) => ({
    body: {
      id: batchId("probe-rentals", now, batch.agents),
      round: now.toISOString(),
      agents: batch.agents,
      concurrency: batch.concurrency,
    },
    hostKey: batch.host === null ? null : flowControlKey(batch.host),
  }));
  const dispatched = await dispatchBatches(
    "probe-rentals",
    batches,
    {
      concurrency,
      run: async (body, context) => {
        const result = await probeRentalBatch(body, { ...context, timeoutMs, receivedAt: now });
        options.onBatch?.(result);
        return result;
      },
    },
    options.transport,
  );

  if (dispatched.transport === "qstash") {
    // A batch QStash did not take is not probed: its agents' minute stays unmeasured (up), as for
    // a round that did not run. The claim is this minute's only, so nothing is left to give back.
    const failed = dispatched.failed.reduce((sum, batch) => sum + (batch.body as ProbeBatch).agents.length, 0);
    return {
      ...summary,
      durationMs: Math.round(clock() - started),
      dispatched: { batches: dispatched.published, agents: claimed.length - failed, deduplicated: dispatched.deduplicated },
    };
  }
  for (const result of dispatched.results) {
    for (const key of ["probed", "up", "down", "unmeasured", "rentals"] as const) summary[key] += result[key];
  }
  return { ...summary, durationMs: Math.round(clock() - started) };
}

// The host is read from the stored URL (decrypted here, only its hostname kept): ports of one
// hostname are one owner's machine. No webhook, or a URL that no longer decrypts: no request, no host.
function hostOf(agent: ClaimedAgent): HostedAgent {
  const host = agent.webhookUrlCipher ? openWebhookHost(agent.id, agent.webhookUrlCipher) : null;
  return { id: agent.id, host: host === null ? null : new URL(`http://${host}`).hostname };
}

// Stamping the minute is the claim: a concurrent run skips the locked rows, and once this
// statement commits they are no longer due this minute.
function claimAgents(now: Date, minute: Date, size: number, agentIds: string[] | undefined): Promise<ClaimedAgent[]> {
  return db.$queryRaw<ClaimedAgent[]>`
    UPDATE agents SET probed_minute = ${minute}
    WHERE id IN (
      SELECT a.id FROM agents a
       WHERE a.id IN (SELECT agent_id FROM rentals
                       WHERE status IN ('active', 'disputed') AND starts_at <= ${now} AND ends_at > ${now}
                         AND NOT trial) -- a free trial is not measured: nothing is paid, nothing refunded
         AND (a.probed_minute IS NULL OR a.probed_minute < ${minute})
         ${agentIds ? Prisma.sql`AND a.id = ANY(${agentIds}::uuid[])` : Prisma.empty}
       LIMIT ${size}
       FOR UPDATE SKIP LOCKED
    )
    RETURNING id::text AS id, webhook_url_cipher AS "webhookUrlCipher"`;
}
