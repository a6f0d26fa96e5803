import "server-only";
import { type NoticeSendSummary, sendChatNotices } from "@/lib/channels/send-chat-notices";
import { type EmailSendSummary, sendQueuedEmails } from "@/lib/email/send-queued-emails";

export type SendSummary = { emails: EmailSendSummary; notices: NoticeSendSummary; durationMs: number };

/**
 * The one sender (the send-messages cron, every minute): what the release sweep, disputes, health
 * checks and the chat bots queued — e-mails at Resend's rate, chat notices to their platforms —
 * with retries, each at most once, inside the function's time budget. The two halves run side by
 * side: neither's provider holds up the other's.
 */
export async function sendQueuedMessages(): Promise<SendSummary> {
  const started = performance.now();
  const [emails, notices] = await Promise.all([sendQueuedEmails(), sendChatNotices()]);
  return { emails, notices, durationMs: Math.round(performance.now() - started) };
}
