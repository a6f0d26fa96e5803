import "server-only";
import type { ChatPlatform } from "@/lib/channels/chat-platform";
import { notifyChatUser } from "@/lib/channels/notify-chat-user";
import { db } from "@/lib/db";
import { describeDisputeOutcome } from "@/lib/disputes/describe-dispute-outcome";
import { loadDisputeParties } from "@/lib/disputes/dispute-parties";
import { tellAccount } from "@/lib/disputes/tell-account";
import { agentDashboardUrl } from "@/lib/email/templates/agent-dashboard-url";
import { plainEmail } from "@/lib/email/templates/plain-email";
import { appUrl } from "@/lib/env";

/** DisputeResolved's `how`: who ended the dispute. */
export const RESOLVED_BY = ["arbiter", "owner", "expired"] as const;

/**
 * The event reader saw DisputeResolved (after it stored the refund on the rental and moved its
 * status): the dispute row records when and by whom, then the renter and the owner are told
 * (notification and e-mail, once each) and so are the chat users bound to the rental (once).
 */
export async function recordDisputeResolved(
  rentalId: string,
  chain: { resolvedAt: Date; how: number; txHash: string; refundMicro: bigint },
): Promise<void> {
  const resolvedBy = RESOLVED_BY[chain.how] ?? "arbiter";
  await db.$executeRaw`
    INSERT INTO disputes (rental_id, resolved_at, resolved_by, resolve_tx_hash)
    VALUES (${rentalId}::uuid, ${chain.resolvedAt}, ${resolvedBy}, ${chain.txHash})
    ON CONFLICT (rental_id) DO UPDATE SET resolved_at = EXCLUDED.resolved_at, resolved_by = EXCLUDED.resolved_by,
      resolve_tx_hash = EXCLUDED.resolve_tx_hash
    WHERE disputes.resolved_at IS NULL`;
  const parties = await loadDisputeParties(rentalId);
  if (!parties) return;
  const { rental, agentName, owner, renter } = parties;
  const outcome = describeDisputeOutcome({
    refundMicro: chain.refundMicro,
    priceMicro: rental.priceMicro,
    feeMicro: rental.feeMicro,
    resolvedBy,
    ended: rental.endsAt.getTime() <= chain.resolvedAt.getTime(),
  });
  // Each side names the rental as it knows it: the renter by its code, the owner by its reference.
  const subject = (name: string) => `${outcome.title} (${agentName}, rental ${name})`;
  if (renter) {
    const email = plainEmail(subject(rental.id.slice(0, 8)), [outcome.renter], { url: `${appUrl()}/dashboard/rentals/${rental.id}`, label: "Open the rental" });
    await tellAccount(renter, "dispute-resolved", rental.id, email, { title: outcome.title, body: outcome.renter });
  }
  const email = plainEmail(subject(rental.ref), [outcome.owner], { url: `${agentDashboardUrl(rental.agentId)}#disputes`, label: "Open the listing" });
  await tellAccount(owner, "dispute-resolved", rental.id, email, { title: outcome.title, body: outcome.owner });
  await tellChats(rentalId, `The dispute over your rental of ${agentName} was decided. ${outcome.renter}`);
}

// Chats bound to the rental were disconnected when it was disputed; each chat user who ever used
// it hears the outcome once (the claim on chats_told_at makes a second run tell nobody).
async function tellChats(rentalId: string, text: string): Promise<void> {
  const claimed = await db.dispute.updateMany({ where: { rentalId, chatsToldAt: null }, data: { chatsToldAt: new Date() } });
  if (claimed.count === 0) return;
  const bindings = await db.chatBinding.findMany({
    where: { rentalId },
    orderBy: { createdAt: "desc" },
    select: { platform: true, chatUser: true, chatId: true },
  });
  const seen = new Set<string>();
  for (const b of bindings) {
    const key = `${b.platform}:${b.chatUser}`;
    if (seen.has(key)) continue;
    seen.add(key);
    await notifyChatUser({ platform: b.platform as ChatPlatform, id: b.chatUser, chatId: b.chatId }, text).catch((error: unknown) => {
      console.error(
        `[disputes] telling a ${b.platform} chat the outcome failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    });
  }
}
