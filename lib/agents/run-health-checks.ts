import "server-only";
import { applyHealthOutcome } from "@/lib/agents/apply-health-outcome";
import { checkAgentWebhook } from "@/lib/agents/check-agent-webhook";
import { type HealthCheckRow, type HealthTrigger, recordHealthChecks } from "@/lib/agents/record-health-checks";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { Prisma } from "@/lib/generated/prisma/client";
import type { AgentStatus } from "@/lib/generated/prisma/enums";

export type HealthCheckRunOptions = {
  /** The claim time: agents last claimed 14 minutes or more before it are due. */
  now?: Date;
  /** Checks in flight at once (default HEALTH_CHECK_CONCURRENCY). */
  concurrency?: number;
  /** Stop claiming when the checks already claimed could no longer finish inside this (default 250 s). */
  budgetMs?: number;
  /** Agents claimed per query, and checks recorded per statement (default 500). */
  batchSize?: number;
  /** Only these agents (tests share one database with other test files). */
  agentIds?: string[];
  /** Milliseconds on a monotonic clock, read for the time budget (default performance.now). */
  clock?: () => number;
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
};

// Every agent is checked once per 15 minutes: it falls due 14 minutes after its last claim (a
// minute early, so that cron jitter cannot push it into the next period). The schedule runs every
// 5 minutes: a run with nothing due costs one query, and agents a run left at its time budget (a
// large fleet) wait 5 minutes, not a whole period.
const DUE_AFTER = "14 minutes";
// Vercel stops a function at 300 s (maxDuration); the margin covers database work and the reply.
const DEFAULT_BUDGET_MS = 250_000;
const DEFAULT_BATCH_SIZE = 500;
const TRIGGER: HealthTrigger = "schedule";

type ClaimedAgent = {
  id: string;
  name: string;
  status: AgentStatus;
  /** Read with the claim, so that a transition's e-mail costs no query of its own. */
  ownerEmail: string | null;
  webhookUrlCipher: string;
  webhookTokenCipher: string;
  webhookSigningSecretCipher: string | null;
};

/**
 * One sweep of the periodic health checks (docs/webhooks.md): every due agent with a webhook is
 * claimed, checked and recorded; `available` agents that fail go `offline` and `offline` agents
 * that pass come back, each transition e-mailed to the owner once. Claims are atomic
 * (`FOR UPDATE SKIP LOCKED` and the claim time itself), so runs started at once, or repeated, never
 * check an agent twice in a period.
 */
export async function runHealthChecks(options: HealthCheckRunOptions = {}): Promise<HealthCheckSummary> {
  const clock = options.clock ?? (() => performance.now());
  const started = clock();
  const elapsed = () => clock() - started;
  const now = options.now ?? new Date();
  const concurrency = options.concurrency ?? env.HEALTH_CHECK_CONCURRENCY;
  const budgetMs = options.budgetMs ?? DEFAULT_BUDGET_MS;
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  const due = dueAgents(now, options.agentIds);
  const summary = { checked: 0, healthy: 0, failed: 0, wentOffline: 0, cameOnline: 0, errors: 0, remaining: 0 };
  // Recorded a batch at a time (one statement per batchSize checks), so memory and queries stay
  // the same per check whatever the number of agents.
  const records: HealthCheckRow[] = [];
  let outOfTime = false;

  // Claims lazily, one batch when the last is handed out, so the workers never wait on a slow
  // tail and nothing is claimed that this run would not check.
  async function* claimed(): AsyncGenerator<ClaimedAgent> {
    for (;;) {
      // Worst case, every check takes the full timeout: claim only what the workers can finish in
      // the budget, after the checks still in flight (one round).
      const rounds = Math.floor((budgetMs - elapsed()) / env.HEALTH_CHECK_TIMEOUT_MS) - 1;
      const size = Math.min(batchSize, rounds * concurrency);
      if (size <= 0) {
        outOfTime = true;
        return;
      }
      const batch = await claimDueAgents(due, now, size);
      if (batch.length === 0) return;
      yield* batch;
    }
  }

  const flushRecords = () => recordHealthChecks(records.splice(0), TRIGGER);

  async function checkOne(agent: ClaimedAgent): Promise<void> {
    // A check that throws counts as a failed check, never as a silent skip (checkAgentWebhook).
    const result = await checkAgentWebhook(agent);
    const checkedAt = new Date();
    summary.checked++;
    summary[result.ok ? "healthy" : "failed"]++;
    records.push({ agentId: agent.id, createdAt: checkedAt, ...result });
    if (records.length >= batchSize) await flushRecords();

    // One e-mail key per transition: the claim time makes it unique to this run's check of this agent.
    const moved = await applyHealthOutcome(agent, result, checkedAt, now);
    if (moved) summary[moved]++;
  }

  const queue = claimed();
  const worker = async () => {
    for (let next = await queue.next(); !next.done; next = await queue.next()) {
      try {
        await checkOne(next.value);
      } catch (error) {
        // Recording or moving the agent failed (the database): one agent's trouble must not stop
        // the sweep. A check that could not be made is not this: it fails the check (checkAgentWebhook).
        summary.errors++;
        console.error(`[health-checks] agent ${next.value.id}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  await flushRecords();

  if (outOfTime) {
    summary.remaining = await countDueAgents(due);
    if (summary.remaining > 0) {
      console.warn(
        `[health-checks] stopped at the ${budgetMs} ms budget with ${summary.remaining} agents still due; ` +
          "raise HEALTH_CHECK_CONCURRENCY or run the cron more often (docs/operations.md).",
      );
    }
  }
  return { ...summary, durationMs: Math.round(elapsed()) };
}

function dueAgents(now: Date, agentIds: string[] | undefined): Prisma.Sql {
  return Prisma.sql`webhook_url_cipher IS NOT NULL AND webhook_token_cipher IS NOT NULL
    AND (last_health_check_at IS NULL OR last_health_check_at <= ${now}::timestamptz - ${DUE_AFTER}::interval)
    ${agentIds ? Prisma.sql`AND id = ANY(${agentIds}::uuid[])` : Prisma.empty}`;
}

// Stamping the claim time is the claim: a concurrent run skips the locked rows, and once this
// statement commits they are no longer due for it.
function claimDueAgents(due: Prisma.Sql, now: Date, size: number): Promise<ClaimedAgent[]> {
  return db.$queryRaw<ClaimedAgent[]>`
    UPDATE agents SET last_health_check_at = ${now}
    WHERE id IN (
      SELECT id FROM agents WHERE ${due}
      ORDER BY last_health_check_at NULLS FIRST
      LIMIT ${size}
      FOR UPDATE SKIP LOCKED
    )
    RETURNING id, name, status::text AS status,
      (SELECT email FROM accounts WHERE accounts.id = agents.owner_id) AS "ownerEmail",
      webhook_url_cipher AS "webhookUrlCipher", webhook_token_cipher AS "webhookTokenCipher",
      webhook_signing_secret_cipher AS "webhookSigningSecretCipher"`;
}

async function countDueAgents(due: Prisma.Sql): Promise<number> {
  const [{ count }] = await db.$queryRaw<[{ count: number }]>`SELECT count(*)::int AS count FROM agents WHERE ${due}`;
  return count;
}
