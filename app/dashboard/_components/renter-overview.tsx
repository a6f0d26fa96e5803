// The overview's renter part: the rentals running now, with their time left and a way into each.
import Link from "next/link";
import { Countdown } from "@/app/dashboard/rentals/_components/countdown";
import { plural } from "@/lib/format/plural";
import { isRentalRunning } from "@/lib/rentals/is-rental-running";
import type { RenterRental } from "@/lib/rentals/list-renter-rentals";
import styles from "../dashboard.module.css";

export function RenterOverview({ rentals, now }: { rentals: RenterRental[]; now: Date }) {
  const running = rentals.filter((r) => isRentalRunning(r, now));
  return (
    <section aria-labelledby="rentals-heading">
      <div className={styles.header}>
        <h2 id="rentals-heading">Your rentals</h2>
        <Link href="/dashboard/rentals">All rentals ({rentals.length})</Link>
      </div>
      {running.length === 0 ? (
        <div className={styles.panel}>
          <p>{rentals.length === 0 ? "You have not rented an agent yet." : "None of your rentals is running now."}</p>
          <p>
            <Link href="/" className="button button-primary">
              Browse the marketplace
            </Link>
          </p>
        </div>
      ) : (
        <>
          <p className="muted">{plural(running.length, "rental")} running now</p>
          <ul className={styles.running}>
            {running.map((rental) => (
              <li key={rental.id} className={styles.panel}>
                <h3>{rental.agentName}</h3>
                <p>
                  Time left: <Countdown endsAt={rental.endsAt.toISOString()} serverNow={now.toISOString()} />
                </p>
                <Link href={`/dashboard/rentals/${rental.id}#playground`} className="button button-primary">
                  Open the chat<span className="visually-hidden"> with {rental.agentName}</span>
                </Link>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
