// The renter's view of a rental's measured minutes: the strip, and what the agent's downtime is
// worth to them — the part of the price the escrow returns at settlement beyond the listing's
// uptime guarantee (docs/availability.md), or what it returned once settled.
import { MinuteStrip } from "@/app/_components/minute-strip";
import type { AvailabilityTerms } from "@/lib/availability/availability-terms";
import { formatCount, formatPercent } from "@/lib/format/number";
import { plural } from "@/lib/format/plural";
import { formatUsdc } from "@/lib/format/usdc";
import type { RenterRental } from "@/lib/rentals/list-renter-rentals";
import styles from "../renter.module.css";

type Rental = Pick<RenterRental, "startsAt" | "status" | "disputeRefundMicro" | "availabilityRefundMicro">;

export function RentalUptime({ terms, rental }: { terms: AvailabilityTerms; rental: Rental }) {
  const guarantee = formatPercent(terms.guaranteePermille / 10);
  const total = terms.minutesTotal;
  // The settlement rule's allowance (lib/availability/availability-terms.ts, refundFor).
  const allowance = Math.floor((total * (1000 - terms.guaranteePermille)) / 1000);
  return (
    <>
      <MinuteStrip id="rental-minutes" minutes={terms} startsAt={rental.startsAt} />
      <p className={styles.refundLine}>{refundLine(terms, rental)}</p>
      <p className="hint" style={{ margin: 0 }}>
        Every minute is measured while the rental runs: a signed check sent to the agent, and your own messages (a minute is down when at
        least half of them failed). The {guarantee} guarantee{" "}
        {allowance === 0
          ? `allows no down minute in this rental's ${plural(total, "minute")}`
          : `allows ${formatCount(allowance)} of this rental's ${plural(total, "minute")} down`}
        ; each {allowance === 0 ? "down minute" : "one beyond that"} returns 1/{formatCount(total)} of the price.
      </p>
    </>
  );
}

/** "Uptime 75% against a 99% guarantee: 2.50 USDC of the price comes back to you when the rental is settled." */
export function refundLine(terms: AvailabilityTerms, rental: Rental): string {
  const guarantee = `a ${formatPercent(terms.guaranteePermille / 10)} guarantee`;
  if (terms.uptimeBasisPoints === null) {
    return `Not started yet: each minute will be measured against ${guarantee}, and down minutes beyond what it allows come back to you as part of the price.`;
  }
  const running = terms.minutesElapsed < terms.minutesTotal;
  const soFar = running ? "so far " : "";
  const uptime = `Uptime ${soFar}${formatPercent(terms.uptimeBasisPoints / 100)} against ${guarantee}`;
  const settled = rental.availabilityRefundMicro;
  if (settled !== null) {
    return settled > 0n ? `${uptime}: ${formatUsdc(settled)} was refunded to you.` : `${uptime}. Within the guarantee: no refund was due.`;
  }
  if (rental.status === "disputed") {
    return `${uptime}. The rental is disputed, so the dispute decides what comes back to you; these minutes are part of its evidence.`;
  }
  if (rental.status === "cancelled" || (rental.disputeRefundMicro ?? 0n) > 0n) {
    return `${uptime}. The dispute decided what came back to you (see Dispute).`;
  }
  if (terms.refundMicro > 0n) {
    return `${uptime}: ${soFar}${formatUsdc(terms.refundMicro)} of the price comes back to you when the rental is settled.`;
  }
  return `${uptime}. Within the guarantee${running ? " so far" : ""}: no refund due.`;
}
