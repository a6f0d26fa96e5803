import { formatPercent } from "@/lib/format/number";

/** "99% uptime guarantee", "99.9% uptime guarantee": a listing's guarantee (per mille) in words. */
export function formatGuarantee(permille: number): string {
  return `${formatPercent(permille / 10)} uptime guarantee`;
}
