import "server-only";
import type { ChatPlatform } from "@/lib/channels/chat-platform";
import { type ChatNoticeMessage, queueChatNotices } from "@/lib/channels/queue-chat-notice";
import { db } from "@/lib/db";
import { describeDisputeOutcome } from "@/lib/disputes/describe-dispute-outcome";
import { loadDisputeParties } from "@/lib/disputes/dispute-parties";
import type { Prisma } from "@/lib/generated/prisma/client";

// A run holds a dispute's chats this long: one that stopped half-way is taken up again after it,
// by the event reader's next run.
const CLAIM_MS = 10 * 60_000;
// Disputes handled per run at most.
const BATCH = 50;

/**
 * Tells every chat user who used a disputed rental on any chat app how the dispute
 * ended (chats bound to it were disconnected when it was disputed): one notice each, queued for
 * the sender (the send-messages cron, which retries what a platform refused), and the dispute
 * marked done (`chats_told`, `chats_told_at`) in the same transaction. A claim
 * (`chats_claimed_at`) keeps two runs from building the same dispute's notices at once, and the
 * notices' keys from queuing one twice. Called for one rental when its outcome is recorded, and
 * without one by the event reader for disputes a stopped run left.
 */
export async function tellDisputeChats(options: { rentalId?: string; now?: Date } = {}): Promise<number> {
  const now = options.now ?? new Date();
  const due = {
    ...(options.rentalId ? { rentalId: options.rentalId } : {}),
    resolvedAt: { not: null },
    chatsToldAt: null,
    OR: [{ chatsClaimedAt: null }, { chatsClaimedAt: { lt: new Date(now.getTime() - CLAIM_MS) } }],
  } satisfies Prisma.DisputeWhereInput;
  const disputes = await db.dispute.findMany({
    where: due,
    take: BATCH,
    select: { rentalId: true, resolvedAt: true, resolvedBy: true, chatsTold: true },
  });
  let told = 0;
  for (const dispute of disputes) {
    const claimed = await db.dispute.updateMany({ where: { ...due, rentalId: dispute.rentalId }, data: { chatsClaimedAt: now } });
    if (claimed.count === 1) told += await tellChats({ ...dispute, resolvedAt: dispute.resolvedAt! }, now);
  }
  return told;
}

async function tellChats(dispute: { rentalId: string; resolvedAt: Date; resolvedBy: string | null; chatsTold: string[] }, now: Date) {
  const { rentalId } = dispute;
  const [parties, refund, bindings] = await Promise.all([
    loadDisputeParties(rentalId),
    db.rental.findUnique({ where: { id: rentalId }, select: { disputeRefundMicro: true } }),
    db.chatBinding.findMany({
      where: { rentalId },
      orderBy: { createdAt: "desc" },
      select: { platform: true, chatUser: true, chatId: true },
    }),
  ]);
  const notices: ChatNoticeMessage[] = [];
  const keys: string[] = [];
  if (parties) {
    const { rental, agentName } = parties;
    const outcome = describeDisputeOutcome({
      refundMicro: refund?.disputeRefundMicro ?? 0n,
      priceMicro: rental.priceMicro,
      feeMicro: rental.feeMicro,
      resolvedBy: dispute.resolvedBy,
      ended: rental.endsAt.getTime() <= dispute.resolvedAt.getTime(),
    });
    const text = `The dispute over your rental of ${agentName} was decided. ${outcome.renter}`;
    // The newest binding of each chat user says where to reach them.
    const seen = new Set(dispute.chatsTold);
    for (const b of bindings) {
      const key = `${b.platform}:${b.chatUser}`;
      if (seen.has(key)) continue;
      seen.add(key);
      keys.push(key);
      notices.push({
        target: { platform: b.platform as ChatPlatform, id: b.chatUser, chatId: b.chatId },
        text,
        idempotencyKey: `dispute-resolved:${rentalId}:${key}`,
      });
    }
  }
  return db.$transaction(async (tx) => {
    const queued = await queueChatNotices(notices, tx, now);
    await tx.dispute.update({ where: { rentalId }, data: { ...(keys.length > 0 ? { chatsTold: { push: keys } } : {}), chatsToldAt: now } });
    return queued;
  });
}
