// A listing's latest rentals, for its owner: each by its reference (never its id, whose first
// characters are the renter's code), when it started, its status and price, the uptime measured
// every minute of it, and what the downtime cost: the refund due at settlement, or refunded.
import { TableScrollRegion } from "@/app/dashboard/_components/table-scroll-region";
import { AGENT_RENTALS_SHOWN, type AgentRental } from "@/lib/agents/list-agent-rentals";
import { formatDateTime } from "@/lib/format/date-time";
import { DURATION_LABEL } from "@/lib/format/duration";
import { formatCount, formatPercent } from "@/lib/format/number";
import { plural } from "@/lib/format/plural";
import { rentalStatusLabel } from "@/lib/format/status-label";
import { formatUsdc } from "@/lib/format/usdc";
import styles from "../../dashboard.module.css";
import listingStyles from "../listings.module.css";

type Props = { rentals: AgentRental[]; total: number; now: Date };

export function ListingRentals({ rentals, total, now }: Props) {
  return (
    <>
      <p className="hint">
        Every minute of a rental is measured: a signed check to the webhook, and the renter&apos;s own messages. Down minutes beyond the
        listing&apos;s uptime guarantee are refunded to the renter, in proportion to the price, when the rental is settled.
      </p>
      <TableScrollRegion label="Rentals of this listing">
        <table className={styles.table}>
          <caption className="visually-hidden">Rentals of this listing, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Rental</th>
              <th scope="col">Started</th>
              <th scope="col">Status</th>
              <th scope="col" className={styles.num}>
                Price
              </th>
              <th scope="col" className={styles.num}>
                Uptime
              </th>
              <th scope="col" className={styles.num}>
                Refunded for downtime
              </th>
            </tr>
          </thead>
          <tbody>
            {rentals.map((rental) => (
              <tr key={rental.ref}>
                <th scope="row" className={listingStyles.rentalRef}>
                  <code className={styles.address}>{rental.ref}</code>
                  <span className="hint">{DURATION_LABEL[rental.durationType].one}</span>
                </th>
                <td>
                  <time dateTime={rental.startsAt.toISOString()}>{formatDateTime(rental.startsAt)}</time>
                </td>
                <td>{rentalStatusLabel(rental.status, rental.endsAt, now).label}</td>
                <td className={styles.num}>{formatUsdc(rental.priceMicro)}</td>
                <td className={styles.num}>
                  <Uptime rental={rental} />
                </td>
                <td className={styles.num}>
                  <Refund rental={rental} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScrollRegion>
      {total > rentals.length && (
        <p className="hint">
          Showing the latest {AGENT_RENTALS_SHOWN} of {plural(total, "rental")}.
        </p>
      )}
    </>
  );
}

function Uptime({ rental: { terms } }: { rental: AgentRental }) {
  if (!terms || terms.uptimeBasisPoints === null) return <span className="muted">Not started</span>;
  const running = terms.minutesElapsed < terms.minutesTotal;
  return (
    <>
      {formatPercent(terms.uptimeBasisPoints / 100)}
      {running && " so far"}
      <br />
      <span className="hint">
        {terms.minutesDown === 0 ? "none" : formatCount(terms.minutesDown)} of {plural(terms.minutesElapsed, "minute")} down
      </span>
    </>
  );
}

function Refund({ rental }: { rental: AgentRental }) {
  const { terms } = rental;
  if (rental.availabilityRefundMicro !== null) {
    return rental.availabilityRefundMicro > 0n ? formatUsdc(rental.availabilityRefundMicro) : "None";
  }
  if (rental.status === "disputed") return <span className="muted">The dispute decides</span>;
  if (rental.status === "cancelled" || (rental.disputeRefundMicro ?? 0n) > 0n) return <span className="muted">Settled by the dispute</span>;
  if (!terms || terms.uptimeBasisPoints === null) return <span className="muted">—</span>;
  const running = terms.minutesElapsed < terms.minutesTotal;
  if (terms.refundMicro === 0n) {
    return (
      <>
        None
        <br />
        <span className="hint">{running ? "so far, within the guarantee" : "within the guarantee"}</span>
      </>
    );
  }
  return (
    <>
      {formatUsdc(terms.refundMicro)}
      <br />
      <span className="hint">{running ? "due so far, at settlement" : "due at settlement"}</span>
    </>
  );
}
