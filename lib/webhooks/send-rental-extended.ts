import "server-only";
import { openWebhookCredentials } from "@/lib/agents/webhook-credentials";
import { env } from "@/lib/env";
import { type OwnerEventResult, postOwnerEvent } from "@/lib/webhooks/post-owner-event";

export type ExtendedRental = {
  ref: string;
  endsAt: Date;
  agent: {
    id: string;
    name: string;
    webhookUrlCipher: string | null;
    webhookTokenCipher: string | null;
    webhookSigningSecretCipher: string | null;
  };
};

const NOT_SENT = "internal: the call could not be sent";

/**
 * Tells the owner's webhook that a rental was extended (docs/webhooks.md#rental-events):
 * `{ "type": "rental.extended", "rental": { "ref", "ends_at" } }`, with the bearer token,
 * X-Agent-Name, X-Rental-Ref and the Standard Webhooks signature like every call. Sent once, not
 * retried; a failure changes nothing of the extension (it is paid for on chain). Never throws:
 * returns how the webhook answered (null: the listing has no webhook to call), and logs a failure.
 */
export async function sendRentalExtended(rental: ExtendedRental): Promise<OwnerEventResult | null> {
  const started = performance.now();
  let result: OwnerEventResult;
  try {
    const creds = openWebhookCredentials(rental.agent.id, rental.agent);
    if (!creds) return null;
    const body = JSON.stringify({ type: "rental.extended", rental: { ref: rental.ref, ends_at: rental.endsAt.toISOString() } });
    result = await postOwnerEvent(creds, rental.agent.name, body, { "X-Rental-Ref": rental.ref }, env.WEBHOOK_TIMEOUT_MS);
  } catch (error) {
    console.error(`[webhooks] rental ${rental.ref}: rental.extended not sent: ${error instanceof Error ? error.message : String(error)}`);
    return { ok: false, statusCode: null, error: NOT_SENT, latencyMs: Math.round(performance.now() - started) };
  }
  if (!result.ok) console.warn(`[webhooks] rental ${rental.ref}: rental.extended not delivered: ${result.error}`);
  return result;
}
