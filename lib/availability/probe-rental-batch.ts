import "server-only";
import { checkAgentWebhook } from "@/lib/agents/check-agent-webhook";
import { applyCallsRule } from "@/lib/availability/apply-calls-rule";
import { minuteIndex } from "@/lib/availability/availability-terms";
import { type MinuteFacts, recordMinutes } from "@/lib/availability/record-minutes";
import { db } from "@/lib/db";
import { claimBatch } from "@/lib/queue/claim-batch";
import type { BatchContext } from "@/lib/queue/dispatch-batches";
import type { ProbeBatch } from "@/lib/schemas/queue-batches";
import type { HealthResult } from "@/lib/webhooks/check-webhook-health";

export type ProbeBatchResult = {
  id: string;
  /** false: a repeated delivery of a batch already taken, or one delivered after its minute; it did nothing. */
  taken: boolean;
  /** Delivered more than a minute after its round: nothing probed, its minute stays unmeasured (so up). */
  late: boolean;
  probed: number;
  up: number;
  down: number;
  /** Probes the service could not make itself (logged): their minutes stay unmeasured, which counts as up. */
  unmeasured: number;
  /** Rentals whose minute was recorded. */
  rentals: number;
  /** Wall time of the batch, from its first query to its last. */
  durationMs: number;
};

type BatchAgent = {
  id: string;
  name: string;
  webhookUrlCipher: string | null;
  webhookTokenCipher: string | null;
  webhookSigningSecretCipher: string | null;
};
type RunningRental = { id: string; agentId: string; startsAt: Date; endsAt: Date; callsCheckedUntil: number };

// Rentals written per statement.
const RECORD_CHUNK = 500;
// A round in the cron's process may take its route's whole maxDuration (60 s) to reach its last
// agent; a delivered batch is allowed as long, and no longer: a probe made later than that would
// say more about the next minute than about its own.
const LATE_AFTER_MS = 60_000;
const NO_WEBHOOK = "no webhook is connected";

/**
 * One batch of a probe round (docs/availability.md), delivered by QStash to
 * /api/queue/probe-rentals or run in the cron's process: probes exactly the agents named that its
 * round still holds for its minute (`agents.probed_minute`, the round's claim), with one signed
 * `health_check` each, and records that minute, up or down, in each of their running rentals, with
 * the rule on their chat calls brought up to date, as the round always has. The batch's id is
 * claimed first, so a repeated delivery probes nothing; a delivery more than a minute after its
 * round probes nothing either (the minute stays unmeasured, which counts as up).
 */
export async function probeRentalBatch(
  batch: ProbeBatch,
  context: BatchContext & { timeoutMs: number; receivedAt?: Date },
): Promise<ProbeBatchResult> {
  const started = performance.now();
  const now = new Date(batch.round);
  const minute = new Date(Math.floor(now.getTime() / 60_000) * 60_000);
  const result = { id: batch.id, taken: false, late: false, probed: 0, up: 0, down: 0, unmeasured: 0, rentals: 0 };
  const done = () => {
    context.onStarted?.();
    return { ...result, durationMs: Math.round(performance.now() - started) };
  };

  if ((context.receivedAt ?? new Date()).getTime() > now.getTime() + LATE_AFTER_MS) {
    result.late = true;
    return done();
  }
  // Read before the claim: a delivery that fails here is retried by QStash and can still take the batch.
  const agents = await stillClaimed(batch.agents, minute);
  if (!(await claimBatch("probe-rentals", batch.id))) return done();
  result.taken = true;

  const results = new Map<string, boolean>();
  const queue = [...agents];
  const worker = async () => {
    for (let agent = queue.shift(); agent; agent = queue.shift()) {
      // Asked for synchronously (the first await), so onStarted below sees every worker waiting.
      await context.slots.acquire();
      try {
        const outcome = await probe(agent, context.timeoutMs);
        result.probed++;
        if (outcome.internal) {
          result.unmeasured++;
          continue;
        }
        results.set(agent.id, outcome.ok);
        result[outcome.ok ? "up" : "down"]++;
      } finally {
        context.slots.release();
      }
    }
  };
  const workers = Array.from({ length: Math.min(batch.concurrency, agents.length) }, worker);
  context.onStarted?.();
  await Promise.all(workers);

  const agentIds = [...results.keys()];
  for (let i = 0; i < agentIds.length; i += RECORD_CHUNK) {
    const rentals = await runningRentals(agentIds.slice(i, i + RECORD_CHUNK), now);
    const facts: MinuteFacts[] = rentals.map((r) => {
      const index = minuteIndex(r, now);
      return { rentalId: r.id, measured: [index], down: results.get(r.agentId) ? [] : [index] };
    });
    facts.push(...(await applyCallsRule(rentals, now)));
    await recordMinutes(facts);
    result.rentals += rentals.length;
  }
  return done();
}

// No webhook connected is a failed probe: an owner cannot make the minutes count as up by
// disconnecting. A probe the service could not make (an exception of its own, credentials under a
// key it no longer holds) is no result at all: the service's failures never cost the owner.
async function probe(agent: BatchAgent, timeoutMs: number): Promise<HealthResult> {
  if (!agent.webhookUrlCipher || !agent.webhookTokenCipher) return { ok: false, statusCode: null, error: NO_WEBHOOK, latencyMs: 0 };
  return checkAgentWebhook(agent, { timeoutMs });
}

function stillClaimed(ids: string[], minute: Date): Promise<BatchAgent[]> {
  return db.$queryRaw<BatchAgent[]>`
    SELECT id::text AS id, name, webhook_url_cipher AS "webhookUrlCipher", webhook_token_cipher AS "webhookTokenCipher",
      webhook_signing_secret_cipher AS "webhookSigningSecretCipher"
    FROM agents WHERE id = ANY(${ids}::uuid[]) AND probed_minute = ${minute}`;
}

function runningRentals(agentIds: string[], now: Date): Promise<RunningRental[]> {
  return db.$queryRaw<RunningRental[]>`
    SELECT id::text AS id, agent_id::text AS "agentId", starts_at AS "startsAt", ends_at AS "endsAt",
           calls_checked_until AS "callsCheckedUntil"
      FROM rentals
     WHERE agent_id = ANY(${agentIds}::uuid[]) AND status IN ('active', 'disputed') AND starts_at <= ${now} AND ends_at > ${now}
       AND NOT trial -- free trials are not measured (docs/trials.md)
    `;
}
