// The owner's answers sold per message, one row per UTC day they were settled: how many, what they
// earned (credited in the escrow, withdrawn with the credit above) and the settlement transactions.
import { TableScrollRegion } from "@/app/dashboard/_components/table-scroll-region";
import { TransactionLink } from "@/app/dashboard/_components/transaction-link";
import { formatDate } from "@/lib/format/date-time";
import { formatCount } from "@/lib/format/number";
import { plural } from "@/lib/format/plural";
import { formatUsdc } from "@/lib/format/usdc";
import { MESSAGE_EARNINGS_DAYS, type MessageEarningsDay } from "@/lib/payouts/list-message-earnings";
import styles from "../../dashboard.module.css";

type Props = { earnings: { days: MessageEarningsDay[]; more: boolean }; explorerUrl: string | null };

export function MessageEarnings({ earnings, explorerUrl }: Props) {
  if (earnings.days.length === 0) {
    return (
      <p>
        No answers sold per message yet. Set a price per message on a listing to sell its answers one at a time to other AI agents and
        scripts; each paid answer&apos;s price is added to your withdrawable credit.
      </p>
    );
  }
  return (
    <>
      <TableScrollRegion label="Per-message earnings by day">
        <table className={styles.table}>
          <caption className="visually-hidden">Answers sold per message, by day, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col" className={styles.num}>
                Answers
              </th>
              <th scope="col" className={styles.num}>
                Earned
              </th>
              <th scope="col">Transactions</th>
            </tr>
          </thead>
          <tbody>
            {earnings.days.map((day) => (
              <tr key={day.day.toISOString()}>
                <th scope="row">
                  <time dateTime={day.day.toISOString().slice(0, 10)}>{formatDate(day.day)}</time>
                </th>
                <td className={styles.num}>{formatCount(day.answers)}</td>
                <td className={styles.num}>{formatUsdc(day.earnedMicro)}</td>
                <td>
                  <DayTransactions day={day} explorerUrl={explorerUrl} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScrollRegion>
      {earnings.more && <p className="hint">Showing your {MESSAGE_EARNINGS_DAYS} latest days with answers sold.</p>}
    </>
  );
}

// One transaction is shown as it is; several wait behind a disclosure, so a busy day keeps one line.
function DayTransactions({ day, explorerUrl }: { day: MessageEarningsDay; explorerUrl: string | null }) {
  if (day.txHashes.length <= 1) return <TransactionLink hash={day.txHashes[0] ?? null} explorerUrl={explorerUrl} />;
  const hidden = day.txCount - day.txHashes.length;
  return (
    <details>
      <summary>{plural(day.txCount, "transaction")}</summary>
      <ul>
        {day.txHashes.map((hash) => (
          <li key={hash}>
            <TransactionLink hash={hash} explorerUrl={explorerUrl} />
          </li>
        ))}
      </ul>
      {hidden > 0 && <p className="hint">and {formatCount(hidden)} more</p>}
    </details>
  );
}
