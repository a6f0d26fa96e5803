import "server-only";
import { applyChainChange, becameStatus, type ChainSource } from "@/lib/chain/apply-chain-change";
import { describeDisputeOutcome } from "@/lib/disputes/describe-dispute-outcome";
import { loadDisputeParties } from "@/lib/disputes/dispute-parties";
import { tellAccount } from "@/lib/disputes/tell-account";
import { tellDisputeChats } from "@/lib/disputes/tell-dispute-chats";
import { agentDashboardUrl } from "@/lib/email/templates/agent-dashboard-url";
import { plainEmail } from "@/lib/email/templates/plain-email";
import { appUrl } from "@/lib/env";
import { recordSettlement } from "@/lib/rentals/record-settlement";

/** DisputeResolved's `how`: who ended the dispute. */
export const RESOLVED_BY = ["arbiter", "owner", "expired"] as const;

/**
 * The event reader saw DisputeResolved (in a final block, `source`, mined at `resolvedAt`). In one
 * journaled chain change (undone if a reorg takes the block away): the refund is stored on the
 * rental and the rental moves — the whole price back cancels it and pays it out here; nothing back
 * makes it active again (a RentalReleased follows if it had ended); a part back is a release of the
 * rest, whose RentalReleased follows in the same transaction — and the dispute row records when
 * and by whom. Then the renter and the owner are told (notification and e-mail, once each) and so
 * are the chat users bound to the rental (once each). Returns whether the rental was cancelled.
 */
export async function recordDisputeResolved(
  rentalId: string,
  source: ChainSource,
  chain: { resolvedAt: Date; how: number; refundMicro: bigint },
): Promise<boolean> {
  const resolvedBy = RESOLVED_BY[chain.how] ?? "arbiter";
  const changes = await applyChainChange([rentalId], source, async (tx) => {
    const rental = await tx.rental.findUniqueOrThrow({ where: { id: rentalId }, select: { priceMicro: true } });
    await tx.rental.updateMany({ where: { id: rentalId, disputeRefundMicro: null }, data: { disputeRefundMicro: chain.refundMicro } });
    if (chain.refundMicro === rental.priceMicro) {
      await tx.rental.updateMany({ where: { id: rentalId, status: { in: ["active", "disputed"] } }, data: { status: "cancelled" } });
      await recordSettlement(tx, [rentalId], { at: chain.resolvedAt, txHash: source.txHash });
    } else if (chain.refundMicro === 0n) {
      await tx.rental.updateMany({ where: { id: rentalId, status: "disputed" }, data: { status: "active" } });
    }
    await tx.$executeRaw`
      INSERT INTO disputes (rental_id, resolved_at, resolved_by, resolve_tx_hash)
      VALUES (${rentalId}::uuid, ${chain.resolvedAt}, ${resolvedBy}, ${source.txHash})
      ON CONFLICT (rental_id) DO UPDATE SET resolved_at = EXCLUDED.resolved_at, resolved_by = EXCLUDED.resolved_by,
        resolve_tx_hash = EXCLUDED.resolve_tx_hash
      WHERE disputes.resolved_at IS NULL`;
  });
  const cancelled = becameStatus(changes, "cancelled") === 1;
  const parties = await loadDisputeParties(rentalId);
  if (!parties) return cancelled;
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
    const email = plainEmail(subject(rental.id.slice(0, 8)), [outcome.renter], {
      url: `${appUrl()}/dashboard/rentals/${rental.id}`,
      label: "Open the rental",
    });
    await tellAccount(renter, "dispute-resolved", rental.id, email, { title: outcome.title, body: outcome.renter });
  }
  const email = plainEmail(subject(rental.ref), [outcome.owner], {
    url: `${agentDashboardUrl(rental.agentId)}#disputes`,
    label: "Open the listing",
  });
  await tellAccount(owner, "dispute-resolved", rental.id, email, { title: outcome.title, body: outcome.owner });
  await tellDisputeChats({ rentalId });
  return cancelled;
}
