import "server-only";
import type { Prisma } from "@/lib/generated/prisma/client";

/**
 * When and in which transaction the escrow paid rentals out (released to the owner, or refunded
 * to the renter): the block's time and the transaction's hash. The first record stands, so the
 * event reader and the release sweep may both report the same release. Written inside the chain
 * change that settles the rentals (lib/chain/apply-chain-change.ts), so a reorg undoes it with them.
 */
export async function recordSettlement(
  client: Prisma.TransactionClient,
  rentalIds: string[],
  settlement: { at: Date; txHash: string },
): Promise<void> {
  if (rentalIds.length === 0) return;
  await client.rental.updateMany({
    where: { id: { in: rentalIds }, settledAt: null },
    data: { settledAt: settlement.at, settleTxHash: settlement.txHash.toLowerCase() },
  });
}
