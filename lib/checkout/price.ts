// Checkout amounts: micro-USDC (6 decimals) as bigint; printed by lib/format/usdc.ts.
import { formatUsdc } from "@/lib/format/usdc";

export const FEE_MICRO = 1_000_000n; // same as RENTAL_FEE_MICRO in lib/money/usdc.ts (1 USDC per rental)

export type CheckoutTotals = { price: bigint; fee: bigint; total: bigint };

// priceMicro is the decimal string the server passed (bigints do not cross to the client).
export function checkoutTotals(priceMicro: string | bigint, fee: bigint = FEE_MICRO): CheckoutTotals {
  const price = typeof priceMicro === "bigint" ? priceMicro : parseMicro(priceMicro);
  return { price, fee, total: price + fee };
}

export function parseMicro(text: string): bigint {
  if (!/^\d{1,30}$/.test(text)) throw new Error(`Not a micro-USDC amount: ${JSON.stringify(text)}`);
  return BigInt(text);
}

// What is missing from a balance to pay total, or null when the balance is enough.
export function shortfall(balance: bigint, total: bigint): bigint | null {
  return balance >= total ? null : total - balance;
}

export function shortfallMessage(balance: bigint, total: bigint): string | null {
  const missing = shortfall(balance, total);
  if (missing === null) return null;
  return `Your wallet holds ${formatUsdc(balance)} but this rental costs ${formatUsdc(total)}: add at least ${formatUsdc(missing)} to this wallet, or connect another one.`;
}
