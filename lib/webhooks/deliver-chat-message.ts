import "server-only";
import type { WebhookCredentials } from "@/lib/agents/webhook-credentials";
import { env } from "@/lib/env";
import { ApiError } from "@/lib/http/api-error";
import { agentNameHeaders } from "@/lib/webhooks/agent-name-headers";
import { chatWebhookDeadlineMs } from "@/lib/webhooks/chat-deadline";
import { safeFetch } from "@/lib/webhooks/safe-fetch";
import { signatureHeaders } from "@/lib/webhooks/signature-headers";

export const MAX_REPLY_BYTES = 1024 * 1024;

// A rental's message (`trial`: a free trial's, docs/trials.md, sent as `"trial": true`; absent
// otherwise), or an answer sold per message (x402): no rental; the payment's reference and the
// paying wallet, whose conversation with this agent the session key names (docs/webhooks.md).
export type ChatContext = {
  message: string;
  agent: { id: string; name: string };
} & (
  | { rental: { ref: string; endsAt: Date; durationType: string; channel: string; sessionKey: string; trial?: boolean } }
  | { payment: { ref: string; payer: string; channel: string; sessionKey: string } }
);

export type Delivery = { webhookStatus: number | null; latencyMs: number; responseBytes: number } & (
  | { ok: true; reply: unknown }
  | { ok: false; error: ApiError }
);

// POSTs one renter message to the owner's webhook (docs/webhooks.md) and returns its reply as it
// was: parsed JSON when the webhook says it sent JSON, otherwise the text. Failures carry the
// spec's codes: no reply in time or unreachable → 503, non-2xx (redirects included) → 502. "In
// time" is WEBHOOK_TIMEOUT_MS from when the request went out (lib/webhooks/chat-deadline.ts).
export async function deliverChatMessage(creds: WebhookCredentials, ctx: ChatContext): Promise<Delivery> {
  const { agent } = ctx;
  const { sessionKey, channel } = "rental" in ctx ? ctx.rental : ctx.payment;
  const body = JSON.stringify({
    type: "message",
    message: ctx.message,
    agentId: agent.id,
    sessionKey,
    channel,
    // Only a free trial's message carries the flag: the owner pays for it, nobody paid them.
    ...("rental" in ctx && ctx.rental.trial ? { trial: true } : {}),
    ...("rental" in ctx
      ? { rental: { ref: ctx.rental.ref, ends_at: ctx.rental.endsAt.toISOString(), duration_type: ctx.rental.durationType } }
      : { rental: null, payment: { ref: ctx.payment.ref, payer: ctx.payment.payer } }),
  });
  const result = await safeFetch(creds.url, {
    method: "POST",
    headers: {
      Authorization: `Bearer ${creds.token}`,
      "Content-Type": "application/json",
      Accept: "application/json, text/plain;q=0.9, */*;q=0.5",
      "User-Agent": "AgentRentalService/1.0",
      ...agentNameHeaders(agent.name),
      // Never the rental's id: its first 8 characters are the renter's code (docs/webhooks.md).
      ...("rental" in ctx ? { "X-Rental-Ref": ctx.rental.ref } : { "X-Payment-Ref": ctx.payment.ref }),
      ...signatureHeaders(creds.signingSecret, body),
    },
    body,
    timeoutMs: chatWebhookDeadlineMs(env.WEBHOOK_TIMEOUT_MS),
    replyTimeoutMs: env.WEBHOOK_TIMEOUT_MS,
    maxBytes: MAX_REPLY_BYTES,
  });

  if (result.kind === "error") {
    return {
      ok: false,
      error: deliveryError(result.reason),
      webhookStatus: null,
      latencyMs: result.latencyMs,
      responseBytes: 0,
    };
  }
  const measured = { webhookStatus: result.status, latencyMs: result.latencyMs, responseBytes: result.body.length };
  if (result.status >= 300 && result.status < 400) {
    const error = new ApiError(502, `The agent's webhook answered with a redirect (HTTP ${result.status}); redirects are not followed.`);
    return { ok: false, error, ...measured };
  }
  if (result.status < 200 || result.status >= 300) {
    return { ok: false, error: new ApiError(502, `The agent's webhook returned HTTP ${result.status}.`), ...measured };
  }
  return { ok: true, reply: decodeReply(result.body, result.headers["content-type"]), ...measured };
}

function deliveryError(reason: "blocked" | "invalid_url" | "timeout" | "unreachable" | "too_large"): ApiError {
  switch (reason) {
    case "timeout":
      return new ApiError(503, `The agent did not reply within ${Math.round(env.WEBHOOK_TIMEOUT_MS / 1000)} seconds; try again later.`);
    case "too_large":
      return new ApiError(502, "The agent's reply was larger than 1 MiB.");
    case "blocked":
      return new ApiError(503, "The agent's webhook does not resolve to a public address; the owner must fix it.");
    case "invalid_url":
      return new ApiError(503, "The agent's webhook URL is not usable; the owner must reconnect it.");
    case "unreachable":
      return new ApiError(503, "The agent's webhook is unreachable; try again later.");
  }
}

function decodeReply(body: Buffer, contentType: string | undefined): unknown {
  const text = body.toString("utf8");
  if (contentType && /^application\/([\w.+-]+\+)?json\b/i.test(contentType.trim())) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}
