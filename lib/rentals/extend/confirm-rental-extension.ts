import "server-only";
import { type Hex, parseEventLogs } from "viem";
import { chainClients } from "@/lib/chain/chain-clients";
import { abi as escrowAbi } from "@/lib/chain/generated/RentalEscrow";
import { readReceipt } from "@/lib/chain/read-receipt";
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
  if (!/^0x[0-9a-fA-F]{64}$/.test(txHash)) throw new ApiError(400, "txHash must be a 0x-prefixed 32-byte transaction hash.");
  const { config } = chainClients();
  const mined = await readReceipt(txHash as Hex);
  if (!mined) throw new ApiError(400, "No mined transaction has this hash yet; wait for it to be mined and retry.");
  const { receipt, confirmations, final } = mined;
  if (receipt.status !== "success")
    throw new ApiError(400, "This transaction failed on chain; nothing was paid and the rental was not extended.");
  if (!final) {
    throw new ApiError(409, `The payment has ${confirmations} of ${config.confirmations} confirmations; retry in a few seconds.`);
  }
  const events = parseEventLogs({
    abi: escrowAbi,
    eventName: "RentalExtended",
    logs: receipt.logs.filter((log) => log.address.toLowerCase() === config.escrow.toLowerCase()),
  });
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
