// USDC has 6 decimals; inside the service every amount is a bigint of micro-USDC. The API
// speaks USDC numbers, converted here exactly through their decimal text, never by float math.
export const MICRO_PER_USDC = 1_000_000n;
export const RENTAL_FEE_MICRO = 1_000_000n; // 1 USDC per rental (spec)

const DECIMAL = /^(\d+)(?:\.(\d{1,6}))?$/;

// Returns null when the value is not a non-negative decimal with at most 6 fractional digits.
export function usdcToMicro(value: number | string): bigint | null {
  const text = typeof value === "number" ? (Number.isFinite(value) ? String(value) : "") : value.trim();
  const match = DECIMAL.exec(text);
  if (!match) return null;
  return BigInt(match[1]) * MICRO_PER_USDC + BigInt((match[2] ?? "").padEnd(6, "0"));
}

export function microToUsdc(micro: bigint): number {
  const whole = micro / MICRO_PER_USDC;
  const frac = (micro % MICRO_PER_USDC).toString().padStart(6, "0");
  return Number(`${whole}.${frac}`);
}
