import "server-only";
import { applyHealthOutcome } from "@/lib/agents/apply-health-outcome";
import { type CheckedAgent, checkAgentWebhook } from "@/lib/agents/check-agent-webhook";
import { recordHealthCheck } from "@/lib/agents/record-health-checks";
import { env } from "@/lib/env";
import type { AgentStatus } from "@/lib/generated/prisma/enums";
import { ApiError } from "@/lib/http/api-error";

/** The limit (25): a renter waits at most this long for the check before a checkout. */
export const CHECKOUT_PROBE_MAX_MS = 10_000;

/** What a quote says of the check made for it: how long the webhook took, and when. */
export type QuoteProbe = { latency_ms: number; checked_at: string };

export type QuoteProbeOptions = {
  /** No 2xx within this fails the check (default HEALTH_CHECK_TIMEOUT_MS, at most 10 s). */
  timeoutMs?: number;
};

/**
 * The live check before money moves (docs/checkout.md): a signed `health_check` to the agent's
 * webhook, through the SSRF-guarded client, recorded with trigger `checkout` (left out of uptime
 * and the owner's stats, which read only the schedule's checks). A failure moves the agent as a
 * failed scheduled check would (offline, owner e-mailed once) and refuses the quote with 409 in the
 * renter's words: the agent's name and nothing of the webhook (no URL, status or network error).
 */
export async function probeBeforeQuote(
  agent: CheckedAgent & { status: AgentStatus; owner: { email: string | null } },
  options: QuoteProbeOptions = {},
): Promise<QuoteProbe> {
  const result = await checkAgentWebhook(agent, { timeoutMs: probeTimeoutMs(options) });
  const checkedAt = new Date();
  await recordHealthCheck(agent.id, result, "checkout", checkedAt);
  await applyHealthOutcome({ ...agent, ownerEmail: agent.owner.email }, result, checkedAt, checkedAt);
  if (!result.ok) {
    throw new ApiError(409, `"${agent.name}" is not answering right now. Nothing was charged: try again later, or pick another agent.`);
  }
  return { latency_ms: result.latencyMs, checked_at: checkedAt.toISOString() };
}

/** How long the check before a quote waits: HEALTH_CHECK_TIMEOUT_MS (or the option), never over 10 s. */
export function probeTimeoutMs(options: QuoteProbeOptions = {}): number {
  return Math.min(options.timeoutMs ?? env.HEALTH_CHECK_TIMEOUT_MS, CHECKOUT_PROBE_MAX_MS);
}
