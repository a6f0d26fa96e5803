import "server-only";
import type { WebhookCredentials } from "@/lib/agents/webhook-credentials";
import { env } from "@/lib/env";
import { type OwnerEventResult, postOwnerEvent } from "@/lib/webhooks/post-owner-event";

export type HealthResult = OwnerEventResult & {
  /** The check could not be made for a reason of the service's own (failedToRunCheck), not the webhook's. */
  internal?: true;
};

const CHECK_NOT_SENT = "internal: the check could not be sent; press Test connection, and contact support if this persists";

// One health check (docs/webhooks.md): a `health_check` POST marked `X-Health-Check: true`;
// any 2xx is healthy. A redirect is a failure: redirects are never followed. Never throws: a
// check that could not even be sent is a failed check (logged), so it takes an agent offline
// and tells its owner like any other failure instead of leaving a broken agent `available`.
export async function checkWebhookHealth(
  agent: { id: string; name: string },
  creds: WebhookCredentials,
  options: { timeoutMs?: number } = {},
): Promise<HealthResult> {
  const started = performance.now();
  try {
    return await sendHealthCheck(agent, creds, options.timeoutMs ?? env.HEALTH_CHECK_TIMEOUT_MS);
  } catch (error) {
    return failedToRunCheck(agent.id, error, CHECK_NOT_SENT, Math.round(performance.now() - started));
  }
}

/**
 * The result of a check that threw before the webhook could answer. `error` is what the owner
 * reads (in the dashboard and the offline e-mail); the exception itself goes to the log only.
 */
export function failedToRunCheck(agentId: string, error: unknown, ownerMessage = CHECK_NOT_SENT, latencyMs = 0): HealthResult {
  console.error(`[health-checks] agent ${agentId}: ${ownerMessage}: ${error instanceof Error ? error.message : String(error)}`);
  return { ok: false, statusCode: null, error: ownerMessage, latencyMs, internal: true };
}

async function sendHealthCheck(agent: { id: string; name: string }, creds: WebhookCredentials, timeoutMs: number): Promise<HealthResult> {
  const body = JSON.stringify({ type: "health_check", timestamp: new Date().toISOString(), agentId: agent.id });
  return postOwnerEvent(creds, agent.name, body, { "X-Health-Check": "true" }, timeoutMs);
}
