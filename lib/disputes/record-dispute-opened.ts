import "server-only";
import { applyChainChange, becameStatus, type ChainSource } from "@/lib/chain/apply-chain-change";
import { db } from "@/lib/db";
import { loadDisputeParties } from "@/lib/disputes/dispute-parties";
import { tellAccount } from "@/lib/disputes/tell-account";
import { agentDashboardUrl } from "@/lib/email/templates/agent-dashboard-url";
import { plainEmail } from "@/lib/email/templates/plain-email";
import { formatDateTime } from "@/lib/format/date-time";
import { disputeReasonLabel } from "@/lib/format/dispute-reason";
import { formatUsdc } from "@/lib/format/usdc";

/**
 * The event reader saw DisputeOpened (in a final block, `source`, mined at `openedAt`): the rental
 * reads disputed and the dispute row (with the reason the renter saved, or none when it was opened
 * without this site) gets the chain's time and transaction — one journaled chain change, undone if
 * a reorg takes the block away — and the owner is told at once: a notification and an e-mail, once
 * per dispute however often the event is read. Returns whether the rental became disputed.
 */
export async function recordDisputeOpened(rentalId: string, source: ChainSource, openedAt: Date): Promise<boolean> {
  const changes = await applyChainChange([rentalId], source, async (tx) => {
    await tx.rental.updateMany({ where: { id: rentalId, status: "active" }, data: { status: "disputed" } });
    await tx.$executeRaw`
      INSERT INTO disputes (rental_id, opened_at, open_tx_hash) VALUES (${rentalId}::uuid, ${openedAt}, ${source.txHash})
      ON CONFLICT (rental_id) DO UPDATE SET opened_at = EXCLUDED.opened_at, open_tx_hash = EXCLUDED.open_tx_hash
      WHERE disputes.opened_at IS NULL`;
  });
  const disputed = becameStatus(changes, "disputed") === 1;
  const [parties, dispute] = await Promise.all([
    loadDisputeParties(rentalId),
    db.dispute.findUnique({ where: { rentalId }, select: { reason: true, details: true, openedAt: true } }),
  ]);
  if (!parties || !dispute?.openedAt) return disputed;
  const { rental, agentName, owner } = parties;
  const url = `${agentDashboardUrl(rental.agentId)}#disputes`;
  const said = `Reason: ${disputeReasonLabel(dispute.reason)}.${dispute.details ? ` The renter wrote: "${dispute.details}"` : ""}`;
  const email = plainEmail(
    `A renter disputed a rental of "${agentName}"`,
    [
      `The renter of "${agentName}" (rental ${rental.ref}) opened a dispute at ${formatDateTime(dispute.openedAt)}. Its payment of ${formatUsdc(rental.priceMicro)} is frozen in the escrow until the dispute is decided.`,
      said,
      "Open the listing to see the evidence the service gathered (health checks and the rental's calls, never message text). If the renter is right, accept the dispute: the renter gets a full refund at once. Otherwise an arbiter decides within a day or two, from the same evidence.",
    ],
    { url, label: "See the dispute" },
  );
  await tellAccount(owner, "dispute-opened", rental.id, email, {
    title: email.subject,
    body: `${said} The payment is frozen until the dispute is decided; you can accept it (a full refund) from the listing.`,
  });
  return disputed;
}
