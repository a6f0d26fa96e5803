"use client";
// The price, the service fee and the total for the chosen duration, plus the gas note.
import type { Duration } from "@/lib/checkout/checkout-api";
import { formatMicroUsdc, type CheckoutTotals } from "@/lib/checkout/price";
import { DURATION_TEXT } from "./duration-text";
import styles from "./checkout.module.css";

export function PriceTable({ totals, duration, chainName }: { totals: CheckoutTotals; duration: Duration; chainName: string }) {
  return (
    <>
      <table className={styles.prices} aria-label="Price">
        <tbody>
          <tr>
            <th scope="row">Price ({DURATION_TEXT[duration]})</th>
            <td data-testid="price-amount">{formatMicroUsdc(totals.price)} USDC</td>
          </tr>
          <tr>
            <th scope="row">Service fee</th>
            <td data-testid="fee-amount">+ {formatMicroUsdc(totals.fee)} USDC</td>
          </tr>
          <tr className={styles.total}>
            <th scope="row">Total</th>
            <td data-testid="total-amount">{formatMicroUsdc(totals.total)} USDC</td>
          </tr>
        </tbody>
      </table>
      <p className="hint">Plus the network&apos;s transaction fee (gas), paid by your wallet in the native coin of {chainName}.</p>
    </>
  );
}
