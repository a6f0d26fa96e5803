import "server-only";
import type { WebhookCredentials } from "@/lib/agents/webhook-credentials";
import { agentNameHeaders } from "@/lib/webhooks/agent-name-headers";
import { signatureHeaders } from "@/lib/webhooks/signature-headers";

/**
 * The headers every call to an owner's webhook carries (docs/webhooks.md): the bearer token, JSON,
 * the service's User-Agent, X-Agent-Name, then the call's own (`extra`: X-Rental-Ref, X-Health-Check…),
 * and the Standard Webhooks signature of `body` last.
 */
export function ownerCallHeaders(
  creds: Pick<WebhookCredentials, "token" | "signingSecret">,
  agentName: string,
  body: string,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    Authorization: `Bearer ${creds.token}`,
    "Content-Type": "application/json",
    "User-Agent": "AgentRentalService/1.0",
    ...agentNameHeaders(agentName),
    ...extra,
    ...signatureHeaders(creds.signingSecret, body),
  };
}
