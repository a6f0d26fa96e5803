import { refundFor } from "@/lib/availability/availability-terms";
import { formatCount, formatPercent } from "@/lib/format/number";
import { formatUsdc } from "@/lib/format/usdc";
import { RENTAL_FEE_MICRO } from "@/lib/money/usdc";
import { GUARANTEE_PERMILLE } from "@/lib/schemas/agent-listing";

const HOUR_MINUTES = 60;
const MONTH_MINUTES = 43_200;
const PRICE_MICRO = 10_000_000n; // 10 USDC
const DOWN_MINUTES = 15;

// The down minutes the guarantee leaves to the owner: floor(total × (100 − guarantee) / 100).
const allowance = (total: number, permille: number) => Math.floor((total * (1000 - permille)) / 1000);

/**
 * The worked example of the docs pages and docs/availability.md, in words, computed by the rule
 * that settles rentals (refundFor): an hour at 10 USDC with the default 99 % guarantee and 15 down
 * minutes, and the allowance of a month under the same guarantee.
 */
export function availabilityExample() {
  const guarantee = { priceMicro: PRICE_MICRO, guaranteePermille: GUARANTEE_PERMILLE.default };
  const refund = refundFor(guarantee, HOUR_MINUTES, DOWN_MINUTES);
  return {
    guarantee: formatPercent(GUARANTEE_PERMILLE.default / 10),
    minutes: formatCount(HOUR_MINUTES),
    price: formatUsdc(PRICE_MICRO),
    down: formatCount(DOWN_MINUTES),
    hourAllowance: formatCount(allowance(HOUR_MINUTES, GUARANTEE_PERMILLE.default)),
    refund: formatUsdc(refund),
    owner: formatUsdc(PRICE_MICRO - refund),
    fee: formatUsdc(RENTAL_FEE_MICRO),
    monthMinutes: formatCount(MONTH_MINUTES),
    monthAllowance: formatCount(allowance(MONTH_MINUTES, GUARANTEE_PERMILLE.default)),
  };
}
