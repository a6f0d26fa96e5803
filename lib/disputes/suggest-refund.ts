/**
 * The refund the evidence suggests: the price pro-rated by the share of the rental the agent was
 * down (rounded down to the micro-USDC, never above the price). The fee is not part of it: only a
 * full refund returns the fee (docs/escrow.md).
 */
export function suggestRefund(priceMicro: bigint, downtimeMs: number, rentalMs: number): bigint {
  if (rentalMs <= 0 || downtimeMs <= 0) return 0n;
  const refund = (priceMicro * BigInt(Math.round(downtimeMs))) / BigInt(Math.round(rentalMs));
  return refund > priceMicro ? priceMicro : refund;
}
