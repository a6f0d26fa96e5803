import "server-only";
import { openWebhookCredentials } from "@/lib/agents/webhook-credentials";
import { env } from "@/lib/env";
import { ownerCallHeaders } from "@/lib/webhooks/owner-call-headers";
import { safeFetch } from "@/lib/webhooks/safe-fetch";

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

/**
 * Tells the owner's webhook that a rental was extended (docs/webhooks.md#rental-events):
 * `{ "type": "rental.extended", "rental": { "ref", "ends_at" } }`, with the bearer token,
 * X-Agent-Name, X-Rental-Ref and the Standard Webhooks signature like every call. Sent once, not
 * retried; a failure changes nothing of the extension (it is paid for on chain). Never throws:
 * returns whether the webhook answered 2xx, and logs why not.
 */
export async function sendRentalExtended(rental: ExtendedRental): Promise<boolean> {
  try {
    const creds = openWebhookCredentials(rental.agent.id, rental.agent);
    if (!creds) return false;
    const body = JSON.stringify({ type: "rental.extended", rental: { ref: rental.ref, ends_at: rental.endsAt.toISOString() } });
    const result = await safeFetch(creds.url, {
      method: "POST",
      headers: ownerCallHeaders(creds, rental.agent.name, body, { "X-Rental-Ref": rental.ref }),
      body,
      timeoutMs: env.WEBHOOK_TIMEOUT_MS,
      maxBytes: 64 * 1024,
    });
    if (result.kind === "error") throw new Error(`${result.reason}: ${result.detail}`);
    if (result.status < 200 || result.status >= 300) throw new Error(`HTTP ${result.status}`);
    return true;
  } catch (error) {
    console.warn(
      `[webhooks] rental ${rental.ref}: rental.extended not delivered: ${error instanceof Error ? error.message : String(error)}`,
    );
    return false;
  }
}
