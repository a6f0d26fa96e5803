// The owner's payouts, newest first: each rental released to them (with its transaction) or
// refunded to its renter. Rentals are named by agent and dates, never by their code.
import { TableScrollRegion } from "@/app/dashboard/_components/table-scroll-region";
import { TransactionLink } from "@/app/dashboard/_components/transaction-link";
import { formatDateTime } from "@/lib/format/date-time";
import { DURATION_LABEL } from "@/lib/format/duration";
import { formatUsdc } from "@/lib/format/usdc";
import { PAYOUT_HISTORY_LIMIT, type PayoutEntry } from "@/lib/payouts/list-payout-history";
import styles from "../../dashboard.module.css";

type Props = { history: { entries: PayoutEntry[]; more: boolean }; explorerUrl: string | null };

export function PayoutHistory({ history, explorerUrl }: Props) {
  if (history.entries.length === 0) return <p>No payouts yet: a rental pays you its price when it ends.</p>;
  return (
    <>
      <TableScrollRegion label="Payout history">
        <table className={styles.table}>
          <caption className="visually-hidden">Payouts, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Rental</th>
              <th scope="col">Date</th>
              <th scope="col" className={styles.num}>
                Amount
              </th>
              <th scope="col">Outcome</th>
              <th scope="col">Transaction</th>
            </tr>
          </thead>
          <tbody>
            {history.entries.map((entry) => (
              <tr key={entry.escrowId}>
                <th scope="row">
                  {entry.agentName} <span className="muted">· {DURATION_LABEL[entry.durationType].one}</span>
                </th>
                <td>
                  {entry.settledAt ? (
                    <time dateTime={entry.settledAt.toISOString()}>{formatDateTime(entry.settledAt)}</time>
                  ) : (
                    <span className="muted">Not recorded</span>
                  )}
                </td>
                <td className={styles.num}>{formatUsdc(entry.amountMicro)}</td>
                <td>{entry.outcome === "released" ? "Paid to you" : "Refunded to the renter"}</td>
                <td>
                  <TransactionLink hash={entry.txHash} explorerUrl={explorerUrl} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScrollRegion>
      {history.more && <p className="hint">Showing your {PAYOUT_HISTORY_LIMIT} latest payouts.</p>}
    </>
  );
}
