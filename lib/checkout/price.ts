// Checkout amounts: micro-USDC (6 decimals) as bigint, printed without float arithmetic.
export const FEE_MICRO = 1_000_000n; // same as RENTAL_FEE_MICRO in lib/money/usdc.ts (1 USDC per rental)
const MICRO = 1_000_000n;

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

// "3.00", "1,234.50", "0.005": at least 2 decimals, up to 6, thousands separated.
export function formatMicroUsdc(micro: bigint): string {
  const negative = micro < 0n;
  const abs = negative ? -micro : micro;
  const whole = (abs / MICRO).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  let frac = (abs % MICRO).toString().padStart(6, "0").replace(/0+$/, "");
  if (frac.length < 2) frac = frac.padEnd(2, "0");
  return `${negative ? "-" : ""}${whole}.${frac}`;
}

// What is missing from a balance to pay total, or null when the balance is enough.
export function shortfall(balance: bigint, total: bigint): bigint | null {
  return balance >= total ? null : total - balance;
}

export function shortfallMessage(balance: bigint, total: bigint): string | null {
  const missing = shortfall(balance, total);
  if (missing === null) return null;
  return `Your wallet holds ${formatMicroUsdc(balance)} USDC but this rental costs ${formatMicroUsdc(total)} USDC: add at least ${formatMicroUsdc(missing)} USDC to this wallet, or connect another one.`;
}
