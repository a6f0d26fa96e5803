import "server-only";
import { db } from "@/lib/db";
import type { DurationType } from "@/lib/generated/prisma/enums";

/** The newest this many are shown; the page says so when there are more. */
export const PAYOUT_HISTORY_LIMIT = 50;

export type PayoutEntry = {
  /** The rental's id on the escrow (public on chain), never its id or code. */
  escrowId: string;
  agentName: string;
  durationType: DurationType;
  endsAt: Date;
  /** What the owner received: the price, less what a dispute refunded (0 when refunded in full). */
  amountMicro: bigint;
  /** "released": paid to the owner; "refunded": returned to the renter, so nothing for the owner. */
  outcome: "released" | "refunded";
  /** When the payout's transaction was confirmed, when the service sent it. */
  paidAt: Date | null;
  /** The release transaction's hash, when the service sent it (anyone may release: then null). */
  txHash: string | null;
};

/**
 * The owner's payouts, newest first: rentals paid on chain that were released to the owner or
 * refunded to the renter, from the service's own records of the chain (the event reader and the
 * release sweep).
 */
export async function listPayoutHistory(ownerId: string): Promise<{ entries: PayoutEntry[]; more: boolean }> {
  const rows = await db.rental.findMany({
    where: { agent: { ownerId }, createTxHash: { not: null }, status: { in: ["completed", "cancelled"] } },
    orderBy: [{ endsAt: "desc" }, { id: "asc" }],
    take: PAYOUT_HISTORY_LIMIT + 1,
    select: {
      escrowId: true,
      status: true,
      durationType: true,
      endsAt: true,
      priceMicro: true,
      disputeRefundMicro: true,
      agent: { select: { name: true } },
      releaseTx: { select: { hash: true, status: true, confirmedAt: true } },
    },
  });
  const entries = rows.slice(0, PAYOUT_HISTORY_LIMIT).map((row) => {
    const confirmed = row.releaseTx?.status === "confirmed" ? row.releaseTx : null;
    return {
      escrowId: row.escrowId,
      agentName: row.agent.name,
      durationType: row.durationType,
      endsAt: row.endsAt,
      amountMicro: row.status === "completed" ? row.priceMicro - (row.disputeRefundMicro ?? 0n) : 0n,
      outcome: row.status === "completed" ? ("released" as const) : ("refunded" as const),
      paidAt: confirmed?.confirmedAt ?? null,
      txHash: confirmed?.hash ?? null,
    };
  });
  return { entries, more: rows.length > PAYOUT_HISTORY_LIMIT };
}
