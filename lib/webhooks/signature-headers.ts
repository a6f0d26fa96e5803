import "server-only";
import { randomUUID } from "node:crypto";
import { Webhook } from "standardwebhooks";

/**
 * The Standard Webhooks headers of one call to an owner's webhook (docs/webhooks.md#signatures):
 * a unique `webhook-id`, the `webhook-timestamp` in seconds and `webhook-signature`
 * (`v1,<base64 HMAC-SHA256 of "id.timestamp.body">`), signed with the agent's secret by the
 * `standardwebhooks` package, so any of its verifiers accepts them. None without a secret.
 */
export function signatureHeaders(secret: string | null | undefined, body: string, now: Date = new Date()): Record<string, string> {
  if (!secret) return {};
  const id = `msg_${randomUUID().replaceAll("-", "")}`;
  return {
    "webhook-id": id,
    "webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
    "webhook-signature": new Webhook(secret).sign(id, now, body),
  };
}
