import "server-only";
import type { ChatTarget } from "@/lib/channels/chat-platform";
import { canNotify } from "@/lib/channels/notify-chat-user";
import { db } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";

export type ChatNoticeMessage = {
  target: ChatTarget;
  text: string;
  /** Names the event (e.g. `chat-ended:<binding id>`): one notice per key, ever. */
  idempotencyKey: string;
};

/**
 * Queues notices for the sender (the send-messages cron, lib/channels/send-chat-notices.ts) and
 * returns: no platform is called here. Keyed by their idempotency key, so telling the same event
 * again queues nothing; pass the transaction that records the event, so the notice is queued
 * exactly when the event happens. Chat users the platform gives no way to reach (without the chat
 * they wrote from, where it needs one) are left out. How many were queued (new).
 */
export async function queueChatNotices(
  notices: ChatNoticeMessage[],
  client: Prisma.TransactionClient = db,
  now: Date = new Date(),
): Promise<number> {
  const reachable = notices.filter((n) => canNotify(n.target));
  if (reachable.length === 0) return 0;
  const { count } = await client.chatNotice.createMany({
    data: reachable.map(({ target, text, idempotencyKey }) => ({
      idempotencyKey,
      platform: target.platform,
      chatUser: target.id,
      chatId: target.chatId,
      text,
      status: "queued",
      nextAttemptAt: now,
    })),
    skipDuplicates: true,
  });
  return count;
}
