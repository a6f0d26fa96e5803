import { microToUsdc } from "@/lib/money/usdc";

// "$12.50" for people: at least 2 decimals, up to USDC's 6 (a price of 0.005 stays "$0.005"),
// thousands separated. The digits come from microToUsdc's exact decimal, not float arithmetic:
// a value of at most 15 significant digits prints as exactly the decimal it was built from.
export function formatUsdc(micro: bigint): string {
  return `$${microToUsdc(micro).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 6 })}`;
}
