import { MICRO_PER_USDC, usdcToMicro } from "@/lib/money/usdc";

/**
 * "1,234.50" from micro-USDC: at least 2 decimals, up to USDC's 6 (a price of 0.005 stays
 * "0.005"), thousands grouped. Pure bigint arithmetic, so every amount prints exactly.
 */
export function formatUsdcDigits(micro: bigint): string {
  const negative = micro < 0n;
  const abs = negative ? -micro : micro;
  const whole = (abs / MICRO_PER_USDC).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  const frac = (abs % MICRO_PER_USDC).toString().padStart(6, "0").replace(/0+$/, "").padEnd(2, "0");
  return `${negative ? "-" : ""}${whole}.${frac}`;
}

/** "1,234.50 USDC": an amount as every page, e-mail and bot message shows it. */
export function formatUsdc(micro: bigint): string {
  return `${formatUsdcDigits(micro)} USDC`;
}

/** An amount the services report as a USDC number (exact up to 6 decimals), as formatUsdc shows it. */
export function formatUsdcNumber(value: number): string {
  return formatUsdc(usdcToMicro(value) ?? 0n);
}

/** A price input's value: the exact decimal of a stored micro-USDC price ("2.5"), "" for none. */
export function usdcInputValue(micro: bigint | null): string {
  if (micro === null) return "";
  const whole = micro / MICRO_PER_USDC;
  const frac = (micro % MICRO_PER_USDC).toString().padStart(6, "0").replace(/0+$/, "");
  return frac ? `${whole}.${frac}` : String(whole);
}
