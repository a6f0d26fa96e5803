import "server-only";
import { type Hex, parseEventLogs, type TransactionReceipt } from "viem";
import { chainClients } from "@/lib/chain/chain-clients";
import { abi as escrowAbi } from "@/lib/chain/generated/RentalEscrow";
import { readReceipt } from "@/lib/chain/read-receipt";
import { ApiError } from "@/lib/http/api-error";

type EscrowEventName = "RentalCreated" | "RentalExtended";

/**
 * What a confirm call reads from a renter's transaction (checkout, extension): the receipt, once
 * mined, successful and final (CHAIN_CONFIRMATIONS deep), and the escrow's own `eventName` logs in
 * it (another contract can emit an event of the same shape). ApiError 400 for a malformed hash,
 * an unmined or failed transaction (`failed`: what the renter is told), 409 while not final.
 */
export async function readFinalEscrowEvents<E extends EscrowEventName>(txHash: string, eventName: E, failed: string) {
  if (!/^0x[0-9a-fA-F]{64}$/.test(txHash)) throw new ApiError(400, "txHash must be a 0x-prefixed 32-byte transaction hash.");
  const { config } = chainClients();
  const mined = await readReceipt(txHash as Hex);
  if (!mined) throw new ApiError(400, "No mined transaction has this hash yet; wait for it to be mined and retry.");
  const { receipt, confirmations, final } = mined;
  if (receipt.status !== "success") throw new ApiError(400, failed);
  // Nothing counts before the chain says so: a payment only CHAIN_CONFIRMATIONS deep is final.
  if (!final) {
    throw new ApiError(409, `The payment has ${confirmations} of ${config.confirmations} confirmations; retry in a few seconds.`);
  }
  const events = parseEventLogs({
    abi: escrowAbi,
    eventName,
    logs: receipt.logs.filter((log) => log.address.toLowerCase() === config.escrow.toLowerCase()),
  });
  return { receipt: receipt as TransactionReceipt, events };
}
