import "server-only";
import { applyHealthOutcome } from "@/lib/agents/apply-health-outcome";
import { checkAgentWebhook } from "@/lib/agents/check-agent-webhook";
import { type HealthCheckRow, recordHealthChecks } from "@/lib/agents/record-health-checks";
import { db } from "@/lib/db";
import type { AgentStatus } from "@/lib/generated/prisma/enums";
import { claimBatch } from "@/lib/queue/claim-batch";
import type { BatchContext } from "@/lib/queue/dispatch-batches";
import type { HealthCheckBatch } from "@/lib/schemas/queue-batches";

export type HealthCheckBatchResult = {
  id: string;
  /** false: a repeated delivery of a batch already taken; it did nothing. */
  taken: boolean;
  checked: number;
  healthy: number;
  failed: number;
  wentOffline: number;
  cameOnline: number;
  /** Agents whose result could not be recorded or applied (the database; logged). */
  errors: number;
  /** Agents given back unchecked (no time left to check them): due again at once. */
  released: number;
  /** Wall time of the batch, from its first query to its last. */
  durationMs: number;
};

type BatchAgent = {
  id: string;
  name: string;
  status: AgentStatus;
  /** Read with the agent, so that a transition's e-mail costs no query of its own. */
  ownerEmail: string | null;
  webhookUrlCipher: string;
  webhookTokenCipher: string;
  webhookSigningSecretCipher: string | null;
};

// Checks recorded per statement: a batch holds at most 1,000 agents, so two statements at most.
const RECORD_CHUNK = 500;

/**
 * One batch of a health-check round (docs/webhooks.md#health-checks), delivered by QStash to
 * /api/queue/health-checks or run in the cron's process: checks exactly the agents named that are
 * still claimed by the batch's round (`last_health_check_at` = the round's claim time; a later
 * round's claim, or a disconnected webhook, leaves an agent out), records each check and applies
 * its transition, e-mailing the owner once, as the sweep always has. The batch's id is claimed
 * first, so a repeated delivery checks nothing. `canStart` (the caller's time budget) is asked
 * before each check; agents it refuses are given back, due again for the next round.
 */
export async function runHealthCheckBatch(
  batch: HealthCheckBatch,
  context: BatchContext & { canStart?: () => boolean },
): Promise<HealthCheckBatchResult> {
  const started = performance.now();
  const round = new Date(batch.round);
  const result = { id: batch.id, taken: false, checked: 0, healthy: 0, failed: 0, wentOffline: 0, cameOnline: 0, errors: 0, released: 0 };
  const done = () => ({ ...result, durationMs: Math.round(performance.now() - started) });

  // Read before the claim: a delivery that fails here is retried by QStash and can still take the batch.
  const agents = await stillClaimed(batch.agents, round);
  if (!(await claimBatch("health-checks", batch.id))) {
    context.onStarted?.();
    return done();
  }
  result.taken = true;

  const records: HealthCheckRow[] = [];
  const flushRecords = () => recordHealthChecks(records.splice(0), "schedule");
  const released: string[] = [];

  async function checkOne(agent: BatchAgent): Promise<void> {
    // A check that throws counts as a failed check, never as a silent skip (checkAgentWebhook).
    const outcome = await checkAgentWebhook(agent);
    const checkedAt = new Date();
    result.checked++;
    result[outcome.ok ? "healthy" : "failed"]++;
    records.push({ agentId: agent.id, createdAt: checkedAt, ...outcome });
    if (records.length >= RECORD_CHUNK) await flushRecords();
    // One e-mail key per transition: the round's claim time makes it unique to this check of this agent.
    const moved = await applyHealthOutcome(agent, outcome, checkedAt, round);
    if (moved) result[moved]++;
  }

  const queue = [...agents];
  const worker = async () => {
    for (let agent = queue.shift(); agent; agent = queue.shift()) {
      // Asked for synchronously (the first await), so onStarted below sees every worker waiting.
      await context.slots.acquire();
      try {
        if (context.canStart && !context.canStart()) {
          released.push(agent.id);
          continue;
        }
        await checkOne(agent);
      } catch (error) {
        // Recording or moving the agent failed (the database): one agent's trouble must not stop
        // the batch. A check that could not be made is not this: it fails the check.
        result.errors++;
        console.error(`[health-checks] agent ${agent.id}: ${error instanceof Error ? error.message : String(error)}`);
      } finally {
        context.slots.release();
      }
    }
  };
  const workers = Array.from({ length: Math.min(batch.concurrency, agents.length) }, worker);
  context.onStarted?.();
  await Promise.all(workers);
  await flushRecords();
  if (released.length > 0) result.released = await releaseAgents(released, round);
  return done();
}

function stillClaimed(ids: string[], round: Date): Promise<BatchAgent[]> {
  return db.$queryRaw<BatchAgent[]>`
    SELECT id::text AS id, name, status::text AS status,
      (SELECT email FROM accounts WHERE accounts.id = agents.owner_id) AS "ownerEmail",
      webhook_url_cipher AS "webhookUrlCipher", webhook_token_cipher AS "webhookTokenCipher",
      webhook_signing_secret_cipher AS "webhookSigningSecretCipher"
    FROM agents
    WHERE id = ANY(${ids}::uuid[]) AND last_health_check_at = ${round}
      AND webhook_url_cipher IS NOT NULL AND webhook_token_cipher IS NOT NULL`;
}

// Empty, not the claim before this round's: NULLS FIRST, so the next round claims them first.
async function releaseAgents(ids: string[], round: Date): Promise<number> {
  return db.$executeRaw`
    UPDATE agents SET last_health_check_at = NULL WHERE id = ANY(${ids}::uuid[]) AND last_health_check_at = ${round}`;
}
