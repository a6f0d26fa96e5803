// Words and numbers the owner dashboard shows.
import { formatUsdc } from "@/lib/money/format-usdc";
import { usdcToMicro } from "@/lib/money/usdc";

export const categoryLabel = (category: string) => category.charAt(0).toUpperCase() + category.slice(1);

export const plural = (count: number, one: string, many = `${one}s`) => `${count.toLocaleString("en-US")} ${count === 1 ? one : many}`;

/** "$12.50 USDC" from micro-USDC. */
export const usdc = (micro: bigint) => `${formatUsdc(micro)} USDC`;

/** "$12.50 USDC" from a USDC number as the services report it (exact up to 6 decimals). */
export const usdcNumber = (value: number) => usdc(usdcToMicro(value) ?? 0n);

/** A price input's value: the exact decimal of a stored micro-USDC price, "" when disabled. */
export function priceInputValue(micro: bigint | null): string {
  if (micro === null) return "";
  const whole = micro / 1_000_000n;
  const frac = (micro % 1_000_000n).toString().padStart(6, "0").replace(/0+$/, "");
  return frac ? `${whole}.${frac}` : String(whole);
}

const DATE = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });
export const dateTime = (date: Date) => `${DATE.format(date)} UTC`;

export const CHANNELS = ["API", "Telegram", "Discord", "Slack"] as const;
