import "server-only";
import type { ChatPlatform } from "@/lib/channels/chat-platform";
import { notifyChatUser } from "@/lib/channels/notify-chat-user";
import { db } from "@/lib/db";
import { describeDisputeOutcome } from "@/lib/disputes/describe-dispute-outcome";
import { loadDisputeParties } from "@/lib/disputes/dispute-parties";
import type { Prisma } from "@/lib/generated/prisma/client";

// A run holds a dispute's chats this long: one that stopped half-way (or that a platform refused)
// is tried again after it, by the event reader's next run.
const CLAIM_MS = 10 * 60_000;
// After a day of tries (about 144) the chats still not told are given up on, with a log line.
const GIVE_UP_MS = 24 * 3_600_000;
// Disputes handled per run at most.
const BATCH = 50;

/**
 * Tells every chat user who used a disputed rental on Telegram, Discord or Slack how the dispute
 * ended (chats bound to it were disconnected when it was disputed). Each chat user is marked told
 * only once the message went out (`chats_told`); those a platform refused are tried again on the
 * event reader's later runs, and the dispute is marked done (`chats_told_at`) once nobody is left.
 * A claim (`chats_claimed_at`) keeps two runs from telling the same dispute at once. Called for one
 * rental when its outcome is recorded, and without one by the event reader for the retries.
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
  let told = 0;
  let failed = 0;
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
      try {
        // false: the platform gives no way to reach them (no DM channel): nothing to retry.
        await notifyChatUser({ platform: b.platform as ChatPlatform, id: b.chatUser, chatId: b.chatId }, text);
        await db.dispute.update({ where: { rentalId }, data: { chatsTold: { push: key } } });
        told++;
      } catch (error) {
        failed++;
        console.error(
          `[disputes] telling a ${b.platform} chat the outcome failed; tried again in 10 minutes: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    }
  }
  const givenUp = failed > 0 && now.getTime() - dispute.resolvedAt.getTime() >= GIVE_UP_MS;
  if (givenUp) console.error(`[disputes] gave up telling ${failed} chat user(s) a dispute's outcome after a day of tries`);
  if (failed === 0 || givenUp) await db.dispute.update({ where: { rentalId }, data: { chatsToldAt: now } });
  return told;
}
