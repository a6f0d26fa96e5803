import { formatUsdc } from "@/lib/money/format-usdc";

// "$12.50 USDC": the amount, and the token it is paid in.
export function UsdcPrice({ micro }: { micro: bigint }) {
  return (
    <span className="price">
      {formatUsdc(micro)} <span className="price-unit">USDC</span>
    </span>
  );
}
