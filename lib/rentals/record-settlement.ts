import "server-only";
import { db } from "@/lib/db";

/**
 * When and in which transaction the escrow paid rentals out (released to the owner, or refunded
 * to the renter): the block's time and the transaction's hash. The first record stands, so the
 * event reader and the release sweep may both report the same release.
 */
export async function recordSettlement(rentalIds: string[], settlement: { at: Date; txHash: string }): Promise<void> {
  if (rentalIds.length === 0) return;
  await db.rental.updateMany({
    where: { id: { in: rentalIds }, settledAt: null },
    data: { settledAt: settlement.at, settleTxHash: settlement.txHash.toLowerCase() },
  });
}
