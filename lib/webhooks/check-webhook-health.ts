import "server-only";
import { env } from "@/lib/env";
import type { WebhookCredentials } from "@/lib/agents/webhook-credentials";
import { safeFetch } from "@/lib/webhooks/safe-fetch";

export type HealthResult = { ok: boolean; statusCode: number | null; error: string | null; latencyMs: number };

// One health check (docs/webhooks.md): a `health_check` POST marked `X-Health-Check: true`;
// any 2xx is healthy. A redirect is a failure: redirects are never followed.
export async function checkWebhookHealth(agent: { id: string; name: string }, creds: WebhookCredentials): Promise<HealthResult> {
  const result = await safeFetch(creds.url, {
    method: "POST",
    headers: {
      Authorization: `Bearer ${creds.token}`,
      "Content-Type": "application/json",
      "User-Agent": "AgentRentalService/1.0",
      "X-Agent-Name": agent.name,
      "X-Health-Check": "true",
    },
    body: JSON.stringify({ type: "health_check", timestamp: new Date().toISOString(), agentId: agent.id }),
    timeoutMs: env.HEALTH_CHECK_TIMEOUT_MS,
    maxBytes: 64 * 1024,
  });
  if (result.kind === "error") {
    return { ok: false, statusCode: null, error: `${result.reason}: ${result.detail}`, latencyMs: result.latencyMs };
  }
  const ok = result.status >= 200 && result.status < 300;
  return { ok, statusCode: result.status, error: ok ? null : `HTTP ${result.status}`, latencyMs: result.latencyMs };
}
