import "server-only";
import type { Hex } from "viem";
import { readFinalEscrowEvents } from "@/lib/chain/read-final-escrow-events";
import { db } from "@/lib/db";
import { ApiError } from "@/lib/http/api-error";
import { applyRentalExtended, type ExtensionOutcome } from "@/lib/rentals/extend/apply-rental-extended";

export type ConfirmedExtension = { status: "extended"; ends_at: string; txHash: Hex; notified?: Promise<boolean> };

/**
 * The extension's last step: given the hash of the renter's extendRental transaction, read the
 * receipt and the escrow's own RentalExtended event and move the rental's end (applyRentalExtended:
 * once, whatever the retries; the event reader applies the same event). Final blocks only, as for a
 * checkout. Returns only what the chain shows anyway (the new end), never the rental's code.
 */
export async function confirmRentalExtension(txHash: string): Promise<ConfirmedExtension> {
  const { receipt, events } = await readFinalEscrowEvents(
    txHash,
    "RentalExtended",
    "This transaction failed on chain; nothing was paid and the rental was not extended.",
  );
  let applied: ExtensionOutcome | null = null;
  for (const { args } of events) {
    const result = await applyRentalExtended(args, {
      event: "RentalExtended",
      blockNumber: receipt.blockNumber,
      blockHash: receipt.blockHash,
      txHash: receipt.transactionHash,
    });
    if (result.rentalId) applied = result;
  }
  if (!applied?.rentalId) throw new ApiError(400, "This transaction does not prove an extension of any rental of this service.");
  const rental = await db.rental.findUniqueOrThrow({ where: { id: applied.rentalId }, select: { endsAt: true } });
  return { status: "extended", ends_at: rental.endsAt.toISOString(), txHash: receipt.transactionHash, notified: applied.notified };
}
