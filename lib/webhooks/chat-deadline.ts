// How long one chat waits on its owner's webhook (deliverChatMessage). No "server-only" here:
// scripts/server.ts sizes its shutdown deadline with it.
//
// The spec's 30 s (WEBHOOK_TIMEOUT_MS) are the webhook's: its reply gets them from when the
// request went out. Reaching the webhook first (connecting, and this process's own queue while a
// burst of chats keeps it busy) may take up to WEBHOOK_REACH_MS more, counted in one clock for the
// whole exchange. Past either, the spec's 503. Before, one 30 s clock started before connecting:
// with 2,000 chats arriving at once a busy process sent some requests 10 s late, and a webhook that
// answered in 20 s got its renter a 503 (docs/performance.md, "Slow chats under load").
export const WEBHOOK_REACH_MS = 10_000;

/** The longest one chat waits on its webhook, reply and reaching it together. */
export function chatWebhookDeadlineMs(webhookTimeoutMs: number): number {
  return webhookTimeoutMs + WEBHOOK_REACH_MS;
}
