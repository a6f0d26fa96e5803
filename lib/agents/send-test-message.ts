import "server-only";
import { findOwnerAgent } from "@/lib/agents/find-owner-agent";
import { openWebhookCredentials } from "@/lib/agents/webhook-credentials";
import { ApiError } from "@/lib/http/api-error";
import { chatResponseSchema } from "@/lib/schemas/renter-api";
import { deliverChatMessage } from "@/lib/webhooks/deliver-chat-message";

// A test message stands for a rental that does not exist: a fixed, recognisable context (the
// webhook sees the reference, the owner's answer the id, as a renter's would).
const TEST_RENTAL_ID = "00000000-0000-4000-8000-000000000000";
const TEST_RENTAL_REF = "rr_00000000000000000000000000000000";

export type TestMessageResult = { status: number; body: unknown; latencyMs: number; webhookStatus: number | null };

/**
 * The owner's "Send a test message": one message to the listing's webhook through the same
 * delivery as a renter's (headers, signature, timeout, size cap), answered with exactly what
 * POST /v1/chat would give a renter — its status and JSON body. The rental in the payload is a
 * placeholder (reference rr_ and 32 zeros, session key `test_<agent id>`; the answer's id is
 * 00000000-0000-4000-8000-000000000000); nothing is
 * recorded, so it changes no statistics.
 */
export async function sendTestMessage(
  ownerId: string,
  agentId: string,
  message: string,
  now: Date = new Date(),
): Promise<TestMessageResult> {
  const agent = await findOwnerAgent(ownerId, agentId);
  let creds: ReturnType<typeof openWebhookCredentials>;
  try {
    creds = openWebhookCredentials(agent.id, agent);
  } catch {
    throw new ApiError(409, "The stored webhook can no longer be read: connect it again, then send the test.");
  }
  if (!creds) throw new ApiError(409, "Connect a webhook first: a test message is sent to it.");
  const endsAt = new Date(now.getTime() + 3_600_000);
  const delivery = await deliverChatMessage(creds, {
    message,
    agent,
    rental: { ref: TEST_RENTAL_REF, endsAt, durationType: "hour", channel: "API", sessionKey: `test_${agent.id}` },
  });
  const measured = { latencyMs: delivery.latencyMs, webhookStatus: delivery.webhookStatus };
  if (!delivery.ok) return { status: delivery.error.status, body: { error: delivery.error.message }, ...measured };
  const body = chatResponseSchema.parse({
    success: true,
    agent: agent.name,
    response: delivery.reply,
    rental: { id: TEST_RENTAL_ID, ends_at: endsAt.toISOString() },
  });
  return { status: 200, body, ...measured };
}
