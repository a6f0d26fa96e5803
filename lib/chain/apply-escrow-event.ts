import "server-only";
import type { Log } from "viem";
import { recordAvailabilitySettlements } from "@/lib/availability/record-availability-settlements";
import { applyChainChange, becameStatus, type ChainSource } from "@/lib/chain/apply-chain-change";
import { blockTime } from "@/lib/chain/block-time";
import type { abi as escrowAbi } from "@/lib/chain/generated/RentalEscrow";
import { recordMessagePaid } from "@/lib/chain/record-message-payment";
import { recordDisputeOpened } from "@/lib/disputes/record-dispute-opened";
import { recordDisputeResolved } from "@/lib/disputes/record-dispute-resolved";
import { activatePaidRental } from "@/lib/rentals/activate-paid-rental";
import { completeRentals } from "@/lib/rentals/complete-rentals";
import { applyRentalExtended } from "@/lib/rentals/extend/apply-rental-extended";
import { recordSettlement } from "@/lib/rentals/record-settlement";
import { rentalIdByEscrowId } from "@/lib/rentals/rental-ids-by-escrow-id";

/** One of the escrow's logs, decoded (from getContractEvents or a receipt's parseEventLogs). */
export type EscrowLog = Log<bigint, number, false, undefined, true, typeof escrowAbi>;

/** What an event changed, for the callers' summaries: the status a rental moved to. */
export type EscrowEventOutcome = "activated" | "extended" | "disputed" | "cancelled" | "completed" | null;

/**
 * Brings one escrow event, from a final block (CHAIN_CONFIRMATIONS deep), into the database: every
 * change is a journaled chain change (lib/chain/apply-chain-change.ts) that a reorg undoes, and
 * every handler is idempotent, so the event reader, the release sweep (its receipts) and the
 * reconciliation may all apply the same event. Events for rentals that are not ours change nothing.
 */
export async function applyEscrowEvent(event: EscrowLog): Promise<EscrowEventOutcome> {
  const source: ChainSource = {
    event: event.eventName,
    blockNumber: event.blockNumber,
    blockHash: event.blockHash,
    txHash: event.transactionHash,
  };
  switch (event.eventName) {
    case "RentalCreated": {
      const result = await activatePaidRental(event.args, source);
      if (result.outcome === "not-ours") {
        // Money in the escrow that no rental here accounts for: never dropped silently.
        console.error(
          `[payments] escrow id ${event.args.id}: paid in ${event.transactionHash}, but no rental here has that id; if this service is the escrow's only user, refund it with cancel(id) from the operator key (docs/operations.md)`,
        );
      }
      return result.outcome === "activated" ? "activated" : null;
    }
    case "RentalExtended":
      // The end moves and the price and fee grow, once (keyed by the end it extended).
      return (await applyRentalExtended(event.args, source)).outcome === "extended" ? "extended" : null;
    case "DisputeOpened": {
      const id = await rentalIdByEscrowId(event.args.id);
      if (!id) return null;
      return (await recordDisputeOpened(id, source, await blockTime(event.blockNumber))) ? "disputed" : null;
    }
    case "RentalCancelled": {
      const id = await rentalIdByEscrowId(event.args.id);
      if (!id) return null;
      const at = await blockTime(event.blockNumber);
      const changes = await applyChainChange([id], source, async (tx) => {
        await tx.rental.updateMany({ where: { id, status: { in: ["active", "disputed"] } }, data: { status: "cancelled" } });
        await recordSettlement(tx, [id], { at, txHash: source.txHash });
      });
      return becameStatus(changes, "cancelled") === 1 ? "cancelled" : null;
    }
    case "DisputeResolved": {
      const id = await rentalIdByEscrowId(event.args.id);
      if (!id) return null;
      const chain = { resolvedAt: await blockTime(event.blockNumber), how: event.args.how, refundMicro: event.args.refund };
      return (await recordDisputeResolved(id, source, chain)) ? "cancelled" : null;
    }
    case "RentalSettled": {
      // Comes before its RentalReleased in the same transaction: what was paid back for down minutes.
      const { id, refund, slaHash } = event.args;
      await recordAvailabilitySettlements([{ escrowId: id, refund, slaHash }], source);
      return null;
    }
    case "RentalReleased": {
      const id = await rentalIdByEscrowId(event.args.id);
      if (!id) return null;
      return (await completeRentals([id], { source, at: await blockTime(event.blockNumber) })) === 1 ? "completed" : null;
    }
    case "MessagePaid":
      // A paid answer's settlement (no rental): the payment marked settled if it is not yet.
      await recordMessagePaid(event.args, source);
      return null;
    default:
      return null; // credits, withdrawals, roles, the treasury: nothing of a rental's
  }
}
