import { env } from "@/lib/env";

/**
 * The service's fee on one answer sold per message: `MESSAGE_FEE_BPS` basis points of its price,
 * rounded up to the micro-USDC (a price of 0.001 USDC at 5 % pays a fee of 0.00005 USDC).
 */
export function messageFeeMicro(priceMicro: bigint, feeBps: number = env.MESSAGE_FEE_BPS): bigint {
  return (priceMicro * BigInt(feeBps) + 9_999n) / 10_000n;
}
