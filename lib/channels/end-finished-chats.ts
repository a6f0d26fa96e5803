import "server-only";
import { loadAvailability } from "@/lib/availability/load-availability";
import { chatEndNotice } from "@/lib/channels/chat-end-notice";
import type { ChatPlatform } from "@/lib/channels/chat-platform";
import { endedBinding } from "@/lib/channels/ended-binding";
import { queueChatNotices } from "@/lib/channels/queue-chat-notice";
import { db } from "@/lib/db";

// Platform deliveries are kept a week: Meta retries a WhatsApp delivery it saw unanswered for up
// to 7 days; the others retry for far less (Slack: 3 tries within about an hour; Telegram and
// Discord: minutes).
const DELIVERY_KEEP_MS = 7 * 86_400_000;

// `told`: notices queued for the sender (the send-messages cron); `unreachable`: chats the platform
// gives no way to write to first.
export type EndedChats = { ended: number; told: number; unreachable: number; deliveriesDeleted: number; movesDeleted: number };

/**
 * The chat sweep (cron, every minute): each open binding whose rental can no longer be used
 * (ended, cancelled, disputed, completed) is ended, and its chat's notice queued for the sender, in
 * one transaction, so a second run, or one running beside it, never tells it twice, and a run that
 * stops half-way never ends a chat untold. Also forgets old delivery claims and expired move commands.
 */
export async function endFinishedChats(now: Date = new Date()): Promise<EndedChats> {
  const open = await db.chatBinding.findMany({
    where: { endedAt: null, rental: { OR: [{ status: { not: "active" } }, { endsAt: { lte: now } }] } },
    include: { rental: { select: { id: true, status: true, startsAt: true, endsAt: true, agent: { select: { name: true } } } } },
    take: 500,
  });
  // What an ended rental's chat is told includes its measured uptime and any refund due.
  const ended = open.filter((b) => b.rental.endsAt <= now && ["active", "completed"].includes(b.rental.status));
  const availability = await loadAvailability(
    ended.map((b) => b.rental.id),
    now,
  );
  const result: EndedChats = { ended: 0, told: 0, unreachable: 0, deliveriesDeleted: 0, movesDeleted: 0 };
  for (const binding of open) {
    const platform = binding.platform as ChatPlatform;
    const told = await db.$transaction(async (tx) => {
      const { count } = await tx.chatBinding.updateMany({
        where: { id: binding.id, endedAt: null },
        data: endedBinding("rental_ended", now),
      });
      if (count === 0) return null; // another run took it
      const notice = {
        target: { platform, id: binding.chatUser, chatId: binding.chatId },
        text: chatEndNotice(platform, binding.rental, now, availability.get(binding.rental.id)),
        idempotencyKey: `chat-ended:${binding.id}`,
      };
      return (await queueChatNotices([notice], tx, now)) === 1;
    });
    if (told === null) continue;
    result.ended++;
    if (told) result.told++;
    else result.unreachable++;
  }
  const { count } = await db.chatDelivery.deleteMany({
    where: { createdAt: { lt: new Date(now.getTime() - DELIVERY_KEEP_MS) } },
  });
  result.deliveriesDeleted = count;
  // A move command (`/start mv_…`) past its minutes moves nothing: its hash is of no more use.
  result.movesDeleted = (await db.chatMoveToken.deleteMany({ where: { expiresAt: { lte: now } } })).count;
  return result;
}
