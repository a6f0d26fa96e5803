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
  /** What the owner received: the price, less what a dispute refunded (0 when refunded in full). */
  amountMicro: bigint;
  /** "released": paid to the owner; "refunded": returned to the renter, so nothing for the owner. */
  outcome: "released" | "refunded";
  /**
   * When the money moved (the block's time of the release or refund), and in which transaction.
   * Null only for rentals settled before the service kept this, by a transaction it did not send.
   */
  settledAt: Date | null;
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
    orderBy: [{ settledAt: { sort: "desc", nulls: "last" } }, { endsAt: "desc" }, { id: "asc" }],
    take: PAYOUT_HISTORY_LIMIT + 1,
    select: {
      escrowId: true,
      status: true,
      durationType: true,
      priceMicro: true,
      disputeRefundMicro: true,
      settledAt: true,
      settleTxHash: true,
      agent: { select: { name: true } },
    },
  });
  const entries = rows.slice(0, PAYOUT_HISTORY_LIMIT).map((row) => {
    const released = row.status === "completed";
    return {
      escrowId: row.escrowId,
      agentName: row.agent.name,
      durationType: row.durationType,
      amountMicro: released ? row.priceMicro - (row.disputeRefundMicro ?? 0n) : 0n,
      outcome: released ? ("released" as const) : ("refunded" as const),
      settledAt: row.settledAt,
      txHash: row.settleTxHash,
    };
  });
  return { entries, more: rows.length > PAYOUT_HISTORY_LIMIT };
}
