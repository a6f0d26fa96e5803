import "server-only";
import type { Hex } from "viem";
import { hashAuthToken, isWellFormedAuthToken } from "@/lib/auth/auth-token";
import { readFinalEscrowEvents } from "@/lib/chain/read-final-escrow-events";
import { constantTimeEqual } from "@/lib/crypto/constant-time-equal";
import { db } from "@/lib/db";
import { ApiError } from "@/lib/http/api-error";
import { activatePaidRental } from "@/lib/rentals/activate-paid-rental";

/** What proves the caller is the renter: the quote's claim secret, or a session of the paying wallet. */
export type PaymentClaim = { claimSecret?: string; walletAddress?: string | null };

export type ConfirmedPayment =
  | { id: string; code: string; status: string; starts_at: string; ends_at: string; txHash: Hex }
  | { status: string; txHash: Hex };

// Checkout's last step: given the hash of the renter's createRental transaction, read the receipt
// and the escrow's own RentalCreated event, and activate the rental it proves paid. A hash that
// proves nothing changes nothing (400). The hash is public (mempool, explorers), so it activates
// for anyone but reveals the rental's id and code only to the claimant; others learn the status.
export async function confirmRentalPayment(txHash: string, claim: PaymentClaim = {}): Promise<ConfirmedPayment> {
  const { receipt, events } = await readFinalEscrowEvents(txHash, "RentalCreated", "This transaction failed on chain; nothing was paid.");
  const activated: string[] = [];
  for (const { args } of events) {
    const result = await activatePaidRental(args, {
      event: "RentalCreated",
      blockNumber: receipt.blockNumber,
      blockHash: receipt.blockHash,
      txHash: receipt.transactionHash,
    });
    if ((result.outcome === "activated" || result.outcome === "already-active") && result.rentalId) activated.push(result.rentalId);
  }
  if (activated.length === 0) throw new ApiError(400, "This transaction does not prove a payment for any rental of this service.");

  const rentals = await db.rental.findMany({ where: { id: { in: activated } }, orderBy: { createdAt: "asc" } });
  const claimed = rentals.find((rental) => isClaimant(rental, claim));
  if (!claimed) return { status: rentals[0].status, txHash: receipt.transactionHash };
  return {
    id: claimed.id,
    code: claimed.id.slice(0, 8),
    status: claimed.status,
    starts_at: claimed.startsAt.toISOString(),
    ends_at: claimed.endsAt.toISOString(),
    txHash: receipt.transactionHash,
  };
}

function isClaimant(rental: { claimSecretHash: string | null; renterAddress: string | null }, claim: PaymentClaim): boolean {
  if (
    rental.claimSecretHash &&
    isWellFormedAuthToken(claim.claimSecret) &&
    constantTimeEqual(hashAuthToken(claim.claimSecret), rental.claimSecretHash)
  ) {
    return true;
  }
  // Only the paying wallet could have sent the transaction, and a session proves its owner signed in.
  return !!claim.walletAddress && rental.renterAddress === claim.walletAddress.toLowerCase();
}
