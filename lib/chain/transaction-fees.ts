import "server-only";
import { chainClients } from "@/lib/chain/chain-clients";

export type Fees = { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint };

/**
 * The fees the operator key offers in a transaction signed now: twice the latest base fee plus the
 * node's suggested tip (as wallets do: the base fee may rise 12.5 % a block, and twice it stays
 * minable through six full blocks in a row; only the base fee and the tip are paid), at most
 * CHAIN_MAX_FEE_GWEI. Null while the base fee itself is at or above that cap: nothing signed then
 * could be mined, so the sweep waits for it to fall.
 */
export async function currentFees(): Promise<Fees | null> {
  const { publicClient, config } = chainClients();
  const block = await publicClient.getBlock({ blockTag: "latest" });
  const baseFee = block.baseFeePerGas ?? 0n;
  if (baseFee >= config.maxFeePerGas) return null;
  const tip = await publicClient.estimateMaxPriorityFeePerGas();
  return capFees(baseFee * 2n + tip, tip);
}

/** Fees bounded by CHAIN_MAX_FEE_GWEI, the tip never above the max fee (bigints: no Math.min). */
export function capFees(maxFeePerGas: bigint, maxPriorityFeePerGas: bigint): Fees {
  const fees = { maxFeePerGas, maxPriorityFeePerGas };
  const cap = chainClients().config.maxFeePerGas;
  if (fees.maxFeePerGas > cap) fees.maxFeePerGas = cap;
  if (fees.maxPriorityFeePerGas > fees.maxFeePerGas) fees.maxPriorityFeePerGas = fees.maxFeePerGas;
  return fees;
}
