import "server-only";
import type { Hex } from "viem";
import { applyChainChange, type ChainSource } from "@/lib/chain/apply-chain-change";
import { rentalIdsByEscrowId } from "@/lib/rentals/rental-ids-by-escrow-id";

/** One RentalSettled event of the escrow: the refund for down minutes and the down-minute list's hash. */
export type AvailabilitySettled = { escrowId: Hex; refund: bigint; slaHash: Hex };

/**
 * Records what the escrow's RentalSettled events of one transaction paid back for down minutes,
 * in a journaled chain change (a reorg undoes it). The first record stands, so the event reader
 * and the release sweep's receipt may both report it. Returns how many rentals it recorded.
 */
export async function recordAvailabilitySettlements(events: AvailabilitySettled[], source: ChainSource): Promise<number> {
  const ids = await rentalIdsByEscrowId(events.map((e) => e.escrowId));
  const ours = events.flatMap((e) => {
    const rentalId = ids.get(e.escrowId.toLowerCase());
    return rentalId ? [{ rentalId, ...e }] : [];
  });
  const changes = await applyChainChange(
    ours.map((e) => e.rentalId),
    source,
    async (tx) => {
      for (const e of ours) {
        await tx.rental.updateMany({
          where: { id: e.rentalId, availabilityRefundMicro: null },
          data: { availabilityRefundMicro: e.refund, slaHash: e.slaHash.toLowerCase() },
        });
      }
    },
  );
  return changes.length;
}
