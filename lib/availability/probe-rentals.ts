import "server-only";
import { checkAgentWebhook } from "@/lib/agents/check-agent-webhook";
import { applyCallsRule } from "@/lib/availability/apply-calls-rule";
import { minuteIndex } from "@/lib/availability/availability-terms";
import { type MinuteFacts, recordMinutes } from "@/lib/availability/record-minutes";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { Prisma } from "@/lib/generated/prisma/client";
import type { HealthResult } from "@/lib/webhooks/check-webhook-health";

export type ProbeOptions = {
  /** The run's time: its wall-clock minute is the one probed (default: now). */
  now?: Date;
  /** Probes in flight at once (default PROBE_CONCURRENCY). */
  concurrency?: number;
  /** A probe slower than this is a failed one (default HEALTH_CHECK_TIMEOUT_MS, at most 10 s). */
  timeoutMs?: number;
  /** Agents claimed per query and rentals written per statement (default 500). */
  batchSize?: number;
  /** Only these agents (tests share one database with other test files). */
  agentIds?: string[];
  /** Milliseconds on a monotonic clock, for the summary's duration (default performance.now). */
  clock?: () => number;
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
};

type ClaimedAgent = {
  id: string;
  name: string;
  webhookUrlCipher: string | null;
  webhookTokenCipher: string | null;
  webhookSigningSecretCipher: string | null;
};

type RunningRental = { id: string; agentId: string; startsAt: Date; endsAt: Date; callsCheckedUntil: number };

const DEFAULT_BATCH_SIZE = 500;
const MAX_TIMEOUT_MS = 10_000;
const NO_WEBHOOK = "no webhook is connected";

/**
 * One round of the per-minute availability probe (cron `/api/cron/probe-rentals`, every minute;
 * docs/availability.md): every agent with a rental running now is claimed for this wall-clock
 * minute (so overlapping runs, or several servers, probe it once) and sent one signed
 * `health_check` through the SSRF-guarded client; each of its running rentals records the minute
 * that holds `now` as measured, and as down when the probe failed (non-2xx, timeout, unreachable,
 * no webhook). The rule on real chat calls is brought up to date for the same rentals. A minute no
 * run probed (the service was down or late) stays unmeasured, which counts as up.
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
  const results = new Map<string, boolean>();

  let exhausted = false;
  const pending: ClaimedAgent[] = [];
  // One claim in flight at a time: the workers that find nothing pending wait for it, instead of
  // each sending a claim of its own (200 statements a round, even for one agent).
  let claiming: Promise<void> | null = null;
  async function nextAgent(): Promise<ClaimedAgent | undefined> {
    while (pending.length === 0 && !exhausted) {
      claiming ??= claimAgents(now, minute, batchSize, options.agentIds)
        .then((batch) => {
          if (batch.length === 0) exhausted = true;
          pending.push(...batch);
        })
        .finally(() => {
          claiming = null;
        });
      await claiming;
    }
    return pending.shift();
  }
  const worker = async () => {
    for (let agent = await nextAgent(); agent; agent = await nextAgent()) {
      const result = await probe(agent, timeoutMs);
      summary.probed++;
      if (result.internal) {
        summary.unmeasured++;
        continue;
      }
      results.set(agent.id, result.ok);
      summary[result.ok ? "up" : "down"]++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));

  const agentIds = [...results.keys()];
  for (let i = 0; i < agentIds.length; i += batchSize) {
    const rentals = await runningRentals(agentIds.slice(i, i + batchSize), now);
    const facts: MinuteFacts[] = rentals.map((r) => {
      const index = minuteIndex(r, now);
      return { rentalId: r.id, measured: [index], down: results.get(r.agentId) ? [] : [index] };
    });
    facts.push(...(await applyCallsRule(rentals, now)));
    await recordMinutes(facts);
    summary.rentals += rentals.length;
  }
  return { ...summary, durationMs: Math.round(clock() - started) };
}

// No webhook connected is a failed probe: an owner cannot make the minutes count as up by
// disconnecting. A probe the service could not make (an exception of its own, credentials under a
// key it no longer holds) is no result at all: the service's failures never cost the owner.
async function probe(agent: ClaimedAgent, timeoutMs: number): Promise<HealthResult> {
  if (!agent.webhookUrlCipher || !agent.webhookTokenCipher) return { ok: false, statusCode: null, error: NO_WEBHOOK, latencyMs: 0 };
  return checkAgentWebhook(agent, { timeoutMs });
}

// Stamping the minute is the claim: a concurrent run skips the locked rows, and once this
// statement commits they are no longer due this minute.
function claimAgents(now: Date, minute: Date, size: number, agentIds: string[] | undefined): Promise<ClaimedAgent[]> {
  return db.$queryRaw<ClaimedAgent[]>`
    UPDATE agents SET probed_minute = ${minute}
    WHERE id IN (
      SELECT a.id FROM agents a
       WHERE a.id IN (SELECT agent_id FROM rentals
                       WHERE status IN ('active', 'disputed') AND starts_at <= ${now} AND ends_at > ${now})
         AND (a.probed_minute IS NULL OR a.probed_minute < ${minute})
         ${agentIds ? Prisma.sql`AND a.id = ANY(${agentIds}::uuid[])` : Prisma.empty}
       LIMIT ${size}
       FOR UPDATE SKIP LOCKED
    )
    RETURNING id::text AS id, name, webhook_url_cipher AS "webhookUrlCipher", webhook_token_cipher AS "webhookTokenCipher",
      webhook_signing_secret_cipher AS "webhookSigningSecretCipher"`;
}

function runningRentals(agentIds: string[], now: Date): Promise<RunningRental[]> {
  return db.$queryRaw<RunningRental[]>`
    SELECT id::text AS id, agent_id::text AS "agentId", starts_at AS "startsAt", ends_at AS "endsAt",
           calls_checked_until AS "callsCheckedUntil"
      FROM rentals
     WHERE agent_id = ANY(${agentIds}::uuid[]) AND status IN ('active', 'disputed') AND starts_at <= ${now} AND ends_at > ${now}`;
}
