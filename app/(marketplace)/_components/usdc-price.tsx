import { formatUsdcDigits } from "@/lib/format/usdc";

// "12.50 USDC" as a price tag: the amount large, the token it is paid in beside it.
export function UsdcPrice({ micro }: { micro: bigint }) {
  return (
    <span className="price">
      {formatUsdcDigits(micro)} <span className="price-unit">USDC</span>
    </span>
  );
}
