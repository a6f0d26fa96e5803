import "server-only";
import type { Channel } from "@/lib/generated/prisma/enums";
import { afterResponse } from "@/lib/http/after-response";
import { ApiError } from "@/lib/http/api-error";
import { assertRentalUsable } from "@/lib/rentals/assert-rental-usable";
import type { RentalWithAgent } from "@/lib/rentals/find-rental-by-code";
import { type ChatCallRow, recordChatCall } from "@/lib/rentals/record-chat-calls";
import { type ChatResponse, chatResponseSchema } from "@/lib/schemas/renter-api";
import { returnTrialMessage, spendTrialMessage } from "@/lib/trials/spend-trial-message";
import { deliverChatMessage } from "@/lib/webhooks/deliver-chat-message";
import { openChatCredentials } from "@/lib/webhooks/open-chat-credentials";

/**
 * Where a message comes from. The API sends the channel bought at checkout and the rental's
 * session key; a chat bot sends its platform and a session key of the rental and its chat user.
 */
export type ChatOrigin = { channel: Channel; sessionKey: string };

// One renter message: check the rental window, proxy to the owner's webhook, record the call
// after the response (sizes, status, latency and channel, never the text) and return the spec's 200 body. The one
// path of every channel: /v1/chat and the three bots all come through here.
export async function chatWithRental(rental: RentalWithAgent, message: string, origin?: ChatOrigin): Promise<ChatResponse> {
  assertRentalUsable(rental);
  const channel = origin?.channel ?? "API";
  // A free trial spends one of its messages before the owner is asked (402 with the checkout's
  // address when none are left), and gets it back when the owner does not answer.
  if (rental.trial) await spendTrialMessage(rental);
  const creds = openChatCredentials(rental.agent);
  const requestBytes = Buffer.byteLength(message);
  if ("problem" in creds) {
    if (rental.trial) await returnTrialMessage(rental.id);
    await recordCall(rental, {
      statusCode: 503,
      webhookStatus: null,
      latencyMs: 0,
      requestBytes,
      responseBytes: 0,
      channel,
      error: creds.problem,
    });
    throw new ApiError(503, creds.problem);
  }
  const delivery = await deliverChatMessage(creds, {
    message,
    agent: rental.agent,
    rental: origin ? { ...rental, ...origin } : rental,
  });
  const { webhookStatus, latencyMs, responseBytes } = delivery;
  const statusCode = delivery.ok ? 200 : delivery.error.status;
  const error = delivery.ok ? null : delivery.error.message;
  await recordCall(rental, { statusCode, webhookStatus, latencyMs, requestBytes, responseBytes, channel, error });
  if (!delivery.ok) {
    if (rental.trial) await returnTrialMessage(rental.id);
    throw delivery.error;
  }
  return chatResponseSchema.parse({
    success: true,
    agent: rental.agent.name,
    response: delivery.reply,
    rental: { id: rental.id, ends_at: rental.endsAt.toISOString() },
  });
}

type CallRecord = Omit<ChatCallRow, "rentalId" | "messagePaymentId" | "agentId" | "createdAt">;

// Statistics and evidence, written after the response has gone (several calls to a statement):
// the renter never waits for them, and gets the answer even if the database went away meanwhile
// (the call is then missing from the owner's stats, and the log says so).
function recordCall(rental: RentalWithAgent, call: CallRecord): Promise<void> {
  const row = { rentalId: rental.id, messagePaymentId: null, agentId: rental.agent.id, createdAt: new Date(), ...call };
  return afterResponse(`recording a call to agent ${rental.agent.id}`, () => recordChatCall(row));
}
