// /dashboard/rentals — the signed-in renter's rentals: status, code, time left, and the way to
// the chat playground, the rating form and disputes (on each rental's page).
import type { Metadata } from "next";
import Link from "next/link";
import { StatusBadge } from "@/app/_components/status-badge";
import { requireSignedInAccount } from "@/lib/auth/signed-in-account";
import { channelName } from "@/lib/channels/channel-name";
import { DURATION_LABEL } from "@/lib/format/duration";
import { rentalStatusLabel } from "@/lib/format/status-label";
import { formatUsdc } from "@/lib/format/usdc";
import { isRentalRunning } from "@/lib/rentals/is-rental-running";
import { listRenterRentals, RENTER_RENTALS_LIMIT, type RenterRental } from "@/lib/rentals/list-renter-rentals";
import { CopyCode } from "./_components/copy-code";
import { RentalEndFacts } from "./_components/rental-end-facts";
import styles from "./renter.module.css";

export const metadata: Metadata = { title: "My rentals" };

function canRate(rental: RenterRental, now: Date): boolean {
  return !rental.rated && rental.status !== "cancelled" && rental.startsAt <= now;
}

function RentalCard({ rental, now }: { rental: RenterRental; now: Date }) {
  const running = isRentalRunning(rental, now);
  const href = `/dashboard/rentals/${rental.id}`;
  return (
    <li className={styles.card}>
      <div className={styles.cardHead}>
        <h2 className={styles.cardTitle}>
          <Link href={href}>{rental.agentName}</Link>
        </h2>
        <StatusBadge status={rentalStatusLabel(rental.status, rental.endsAt, now)} />
      </div>
      <dl className={styles.facts}>
        <dt>Code</dt>
        <dd>
          <CopyCode code={rental.code} label={`Copy the code of the ${rental.agentName} rental:`} />
        </dd>
        <RentalEndFacts endsAt={rental.endsAt} now={now} running={running} />
        <dt>Rental</dt>
        <dd>
          {DURATION_LABEL[rental.durationType].one} · {channelName(rental.channel)} · {formatUsdc(rental.priceMicro + rental.feeMicro)}
        </dd>
        <dt>Rating</dt>
        <dd>
          {rental.rating ? (
            <span>
              <span className="star" aria-hidden="true">
                ★
              </span>{" "}
              {rental.rating.score} of 5
            </span>
          ) : (
            <span className="muted">Not rated</span>
          )}
        </dd>
      </dl>
      <div className={styles.actions}>
        <Link href={`${href}#playground`} className="button">
          {running ? "Chat" : "Details"}
          <span className="visually-hidden"> — {rental.agentName}</span>
        </Link>
        {canRate(rental, now) && (
          <Link href={`${href}#rate`} className="button button-quiet">
            Rate the agent<span className="visually-hidden"> {rental.agentName}</span>
          </Link>
        )}
      </div>
    </li>
  );
}

export default async function RenterRentalsPage() {
  const account = await requireSignedInAccount();
  const rentals = await listRenterRentals(account);
  const now = new Date();
  const active = rentals.filter((r) => isRentalRunning(r, now)).length;

  return (
    <main id="main" tabIndex={-1} className={styles.page}>
      <div className={styles.header}>
        <h1>My rentals</h1>
        {rentals.length > 0 && (
          <p className="muted" style={{ margin: 0 }}>
            {rentals.length === 1 ? "1 rental" : `${rentals.length} rentals`}, {active} running
          </p>
        )}
      </div>
      {rentals.length === 0 ? (
        <div className="empty">
          <h2>You have no rentals yet</h2>
          <p>
            Rent an agent on the marketplace: once your payment is confirmed it appears here with its code, its time left and a playground
            to try it.
          </p>
          <p>
            <Link href="/" className="button button-primary">
              Browse the marketplace
            </Link>
          </p>
          {!account.walletAddress && <p className="hint">Rentals paid from a wallet show here when you sign in with that wallet.</p>}
        </div>
      ) : (
        <>
          <p className="hint">
            Use a rental&apos;s code as <code>X-API-Key</code> with the renter API (<Link href="/docs/api">reference</Link>), or try it in
            its playground. Times are in UTC.
          </p>
          <ul className={styles.cards} aria-label="Rentals, newest first">
            {rentals.map((rental) => (
              <RentalCard key={rental.id} rental={rental} now={now} />
            ))}
          </ul>
          {rentals.length >= RENTER_RENTALS_LIMIT && <p className="hint">Showing your {RENTER_RENTALS_LIMIT} most recent rentals.</p>}
        </>
      )}
    </main>
  );
}
