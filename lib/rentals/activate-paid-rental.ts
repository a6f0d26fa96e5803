import "server-only";
import type { Address, Hex } from "viem";
import { applyChainChange, becameStatus, type ChainSource } from "@/lib/chain/apply-chain-change";
import { db } from "@/lib/db";
import { rememberRentalCode } from "@/lib/rentals/authenticate-rental";
import { DURATION_SECONDS } from "@/lib/rentals/durations";

// The fields of the escrow's RentalCreated event, as the chain recorded them.
export type RentalCreatedEvent = {
  id: Hex;
  renter: Address;
  owner: Address;
  price: bigint;
  fee: bigint;
  startsAt: bigint;
  endsAt: bigint;
};

export type Activation = { outcome: "activated" | "already-active" | "not-ours" | "mismatch"; rentalId: string | null };

// Turns a pending rental active from the chain's own record (never from what a browser says):
// the event must match the quote we signed, and the rental's times become the block's. A rental
// whose quote has expired is activated all the same: the escrow took the payment before the
// deadline. Idempotent, so the confirm call and the event reader may both see the same payment;
// journaled with its block (`source`, final: CHAIN_CONFIRMATIONS deep), so a reorg undoes it.
export async function activatePaidRental(event: RentalCreatedEvent, source: ChainSource): Promise<Activation> {
  const rental = await db.rental.findUnique({ where: { escrowId: event.id.toLowerCase() } });
  if (!rental) return { outcome: "not-ours", rentalId: null };
  const rentalId = rental.id;
  // Activated before (its price and fee may since have grown by extensions): nothing to check.
  if (rental.status !== "pending" && rental.createTxHash === source.txHash.toLowerCase()) {
    return { outcome: "already-active", rentalId };
  }
  const matches =
    rental.renterAddress === event.renter.toLowerCase() &&
    rental.payoutAddress === event.owner.toLowerCase() &&
    rental.priceMicro === event.price &&
    rental.feeMicro === event.fee &&
    event.endsAt - event.startsAt === BigInt(DURATION_SECONDS[rental.durationType]);
  if (!matches) {
    // Named by its escrow id, never the rental id: that holds the code.
    console.error(`[payments] escrow id ${event.id}: on-chain RentalCreated does not match the signed quote`);
    return { outcome: "mismatch", rentalId };
  }
  const endsAt = new Date(Number(event.endsAt) * 1000);
  const changes = await applyChainChange([rentalId], source, (tx) =>
    tx.rental.updateMany({
      where: { id: rentalId, status: "pending" },
      data: {
        status: "active",
        startsAt: new Date(Number(event.startsAt) * 1000),
        endsAt,
        createTxHash: source.txHash.toLowerCase(),
      },
    }),
  );
  const activated = becameStatus(changes, "active") === 1;
  if (activated) await rememberRentalCode({ id: rentalId, endsAt });
  return { outcome: activated ? "activated" : "already-active", rentalId };
}
