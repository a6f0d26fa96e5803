import "server-only";
import { createHash } from "node:crypto";
import { botCommand } from "@/lib/channels/bot-commands";
import type { ChatUser } from "@/lib/channels/chat-platform";
import { findOpenBinding } from "@/lib/channels/find-open-binding";
import { rentalUnusableReason } from "@/lib/channels/rental-unusable-reason";
import { replyText } from "@/lib/channels/reply-text";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { ApiError } from "@/lib/http/api-error";
import { chatWithRental } from "@/lib/rentals/chat-with-rental";
import { findRentalByCode } from "@/lib/rentals/find-rental-by-code";

// A binding marked busy longer than the webhook timeout and this margin was left by a run that
// died mid-call (a crash, a function killed at its limit): it no longer blocks the chat.
const STALE_BUSY_MARGIN_MS = 15_000;

/** What the bot answers a message with: the agent's reply, or a sentence saying what went wrong. */
export type RelayResult = { ok: true; text: string } | { ok: false; text: string };

/**
 * A message from a chat user to their agent: through `chatWithRental`, exactly as POST /v1/chat
 * (same checks, same recording, same timeout), with the platform as `channel` and a session key
 * stable per rental and chat user. One message in flight per binding: a second one while the first
 * waits is answered at once and not sent.
 */
export async function relayChatMessage(user: ChatUser, message: string, now: Date = new Date()): Promise<RelayResult> {
  const binding = await findOpenBinding(user);
  if (!binding) {
    return {
      ok: false,
      text: `You are not connected to an agent yet. Send ${botCommand(user.platform, "start")} with your rental code first.`,
    };
  }
  const unusable = rentalUnusableReason(binding.rental, now);
  if (unusable) return { ok: false, text: unusable };

  const staleBefore = new Date(now.getTime() - env.WEBHOOK_TIMEOUT_MS - STALE_BUSY_MARGIN_MS);
  const { count } = await db.chatBinding.updateMany({
    where: { id: binding.id, endedAt: null, OR: [{ busySince: null }, { busySince: { lt: staleBefore } }] },
    data: { busySince: now },
  });
  if (count === 0)
    return {
      ok: false,
      text: "Still waiting for the agent's answer to your previous message. Send this one again once it has arrived.",
    };
  try {
    const lookup = await findRentalByCode(binding.rentalId.replaceAll("-", ""));
    if (lookup.kind !== "found") return { ok: false, text: "This rental can no longer be used." };
    const sessionKey = chatSessionKey(lookup.rental.sessionKey, user);
    const answer = await chatWithRental(lookup.rental, message, { channel: user.platform, sessionKey });
    return { ok: true, text: replyText(answer.response) };
  } catch (error) {
    if (error instanceof ApiError) return { ok: false, text: sentenceFor(error) };
    throw error;
  } finally {
    await db.chatBinding.updateMany({ where: { id: binding.id, busySince: now }, data: { busySince: null } });
  }
}

// The conversation's key for the owner: derived from the rental's random session key, so it is
// stable for the rental and chat user, differs between chat users, and reveals neither.
function chatSessionKey(rentalSessionKey: string, user: ChatUser): string {
  const digest = createHash("sha256").update(`${rentalSessionKey}\n${user.platform}\n${user.id}`).digest("hex");
  return `chat_${digest.slice(0, 40)}`;
}

// chatWithRental's errors (the API's status codes) as sentences for a chat.
function sentenceFor(error: ApiError): string {
  if (error.status === 403) return `The rental cannot be used now: ${error.message}`;
  // A free trial that is over: the sentence already says so and links to the checkout.
  if (error.status === 402) return error.message;
  if (error.status === 502)
    return `The agent returned an error (${error.message.replace(/^The agent's webhook /, "its webhook ")}) Try again, or ask its owner.`;
  if (/did not reply within/.test(error.message))
    return `The agent did not answer in time (${Math.round(env.WEBHOOK_TIMEOUT_MS / 1000)} seconds). Try again later.`;
  return `The agent is not reachable right now: ${error.message}`;
}
