import "server-only";
import { BlockNotFoundError, type Hex, type TransactionReceipt, TransactionReceiptNotFoundError } from "viem";
import { chainClients } from "@/lib/chain/chain-clients";

export type MinedReceipt = {
  receipt: TransactionReceipt;
  /** Blocks on top of the receipt's, its own included. */
  confirmations: bigint;
  /** At least CHAIN_CONFIRMATIONS deep: money it moved counts as moved. */
  final: boolean;
};

/**
 * A transaction's receipt on the chain as it is now, or null when it is not mined (or its block
 * was reorged away). A receipt alone proves nothing lasting: it is checked against the block at
 * its height, and its depth is read afterwards, so a receipt cached before a reorg is never taken.
 */
export async function readReceipt(hash: Hex): Promise<MinedReceipt | null> {
  const { publicClient, config } = chainClients();
  const receipt = await publicClient.getTransactionReceipt({ hash }).catch((error: unknown) => {
    if (error instanceof TransactionReceiptNotFoundError) return null;
    throw error;
  });
  if (!receipt) return null;
  const block = await publicClient.getBlock({ blockNumber: receipt.blockNumber }).catch((error: unknown) => {
    if (error instanceof BlockNotFoundError) return null;
    throw error;
  });
  if (block?.hash !== receipt.blockHash) return null;
  const confirmations = (await publicClient.getBlockNumber({ cacheTime: 0 })) - receipt.blockNumber + 1n;
  return { receipt, confirmations, final: confirmations >= BigInt(config.confirmations) };
}
