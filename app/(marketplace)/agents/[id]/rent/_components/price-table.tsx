"use client";
// The price, the service fee and the total for the chosen duration, plus the gas note.
import type { Duration } from "@/lib/checkout/checkout-api";
import type { CheckoutTotals } from "@/lib/checkout/price";
import { DURATION_LABEL } from "@/lib/format/duration";
import { formatUsdc } from "@/lib/format/usdc";
import styles from "./checkout.module.css";

export function PriceTable({ totals, duration, chainName }: { totals: CheckoutTotals; duration: Duration; chainName: string }) {
  return (
    <>
      <table className={styles.prices} aria-label="Price">
        <tbody>
          <tr>
            <th scope="row">Price ({DURATION_LABEL[duration].one})</th>
            <td data-testid="price-amount">{formatUsdc(totals.price)}</td>
          </tr>
          <tr>
            <th scope="row">Service fee</th>
            <td data-testid="fee-amount">+ {formatUsdc(totals.fee)}</td>
          </tr>
          <tr className={styles.total}>
            <th scope="row">Total</th>
            <td data-testid="total-amount">{formatUsdc(totals.total)}</td>
          </tr>
        </tbody>
      </table>
      <p className="hint">Plus the network&apos;s transaction fee (gas), paid by your wallet in the native coin of {chainName}.</p>
    </>
  );
}
