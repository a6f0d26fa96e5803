import "server-only";
import { findOwnerAgent } from "@/lib/agents/find-owner-agent";
import { recordHealthCheck } from "@/lib/agents/record-health-checks";
import { newSigningSecret, openSigningSecret, sealWebhookCredentials, type WebhookCredentials } from "@/lib/agents/webhook-credentials";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { ApiError } from "@/lib/http/api-error";
import { checkWebhookHealth } from "@/lib/webhooks/check-webhook-health";

// Attaches a webhook to one of the account's listings and tests it at once (spec: "test
// connection"): a 2xx reply makes the agent available, anything else leaves it offline until
// a periodic health check succeeds. The credentials are stored encrypted either way, so the
// owner can fix the webhook without connecting again. The listing's signing secret (Standard
// Webhooks) is kept across reconnections; a listing without one gets one. It is returned
// (`signingSecret`) by every connect until one whose test passes, that one included: an owner
// whose first test failed is still setting the webhook up and gets it again with the fix, rather
// than having to rotate it (docs/decisions.md). After that, null: only a rotation shows one.
export async function connectAgentWebhook(
  ownerId: string,
  agentId: string,
  creds: Omit<WebhookCredentials, "signingSecret">,
  now = new Date(),
) {
  // The safe fetch refuses plain http to public hosts in production as well; refusing here
  // first gives the owner a 400 naming the field instead of a failed test.
  if (env.NODE_ENV === "production" && !env.ALLOW_PRIVATE_WEBHOOKS && new URL(creds.url).protocol !== "https:") {
    throw new ApiError(400, "webhookUrl: must be an https URL");
  }
  const agent = await findOwnerAgent(ownerId, agentId);
  const existing = openSigningSecret(agent.id, agent.webhookSigningSecretCipher);
  const signed = { ...creds, signingSecret: existing ?? newSigningSecret() };
  // A new secret has not been delivered yet, whatever happened to the one before it.
  const shown = existing === null || agent.signingSecretDeliveredAt === null;
  const test = await checkWebhookHealth(agent, signed);
  // Written after the test (which may take seconds) in one statement, guarded by the owner, so
  // an agent deleted meanwhile is not resurrected and the stored status always matches its URL.
  const [updated] = await db.agent.updateManyAndReturn({
    where: { id: agent.id, ownerId },
    data: {
      ...sealWebhookCredentials(agent.id, signed),
      status: test.ok ? "available" : "offline",
      ...(shown ? { signingSecretDeliveredAt: test.ok ? now : null } : {}),
    },
  });
  if (!updated) throw new ApiError(404, "Agent not found: it was deleted while its webhook was being tested.");
  await recordHealthCheck(agent.id, test, "connect");
  return { agent: updated, test, signingSecret: shown ? signed.signingSecret : null };
}
