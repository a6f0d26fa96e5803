import "server-only";
import { openWebhookCredentials } from "@/lib/agents/webhook-credentials";
import { checkWebhookHealth, failedToRunCheck, type HealthResult } from "@/lib/webhooks/check-webhook-health";

/** What a check of a stored listing reads: its name (X-Agent-Name) and its ciphertexts. */
export type CheckedAgent = {
  id: string;
  name: string;
  webhookUrlCipher: string | null;
  webhookTokenCipher: string | null;
  webhookSigningSecretCipher: string | null;
};

const UNREADABLE_CREDENTIALS = "internal: the stored webhook URL and token could not be read; connect the webhook again";

/**
 * One health check of a listing as stored (the sweep's, and the one before a checkout): its
 * credentials opened, then checkWebhookHealth. Never throws. Credentials that no longer open (a
 * ciphertext under a key gone from SECRET_BOX_KEYS) or are missing fail the check, never skip it:
 * the agent goes offline and its owner is told, as for a non-2xx reply; the owner fixes it by
 * connecting the webhook again.
 */
export async function checkAgentWebhook(agent: CheckedAgent, options: { timeoutMs?: number } = {}): Promise<HealthResult> {
  let creds: ReturnType<typeof openWebhookCredentials>;
  try {
    creds = openWebhookCredentials(agent.id, agent);
  } catch (error) {
    return failedToRunCheck(agent.id, error, UNREADABLE_CREDENTIALS);
  }
  if (!creds) return failedToRunCheck(agent.id, new Error("no webhook credentials are stored"), UNREADABLE_CREDENTIALS);
  return checkWebhookHealth(agent, creds, options);
}
