// /dashboard/rentals/[id]/extend — extend one of the renter's running rentals (docs/extend.md): N
// periods of its duration type, or a longer one, paid in one wallet transaction. The code, the
// chat bindings and the owner's sessionKey stay the same. Reminders and the bots link here.
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { requireSignedInAccount } from "@/lib/auth/signed-in-account";
import { escrowChain } from "@/lib/chain/escrow-chain";
import { db } from "@/lib/db";
import { formatDateTime } from "@/lib/format/date-time";
import type { DurationType } from "@/lib/generated/prisma/enums";
import { findRenterRental } from "@/lib/rentals/list-renter-rentals";
import { ExtendStepper } from "../../_components/extend-stepper";
import styles from "../../renter.module.css";

export const metadata: Metadata = { title: "Extend rental" };

const ORDER: DurationType[] = ["hour", "day", "month"];

/** Why this rental cannot be extended now, in the renter's words; null: it can. */
function refusal(rental: { status: string; endsAt: Date; renterAddress: string | null }, agent: { status: string }, now: Date) {
  if (!rental.renterAddress) return "This rental was not paid through the escrow (a demo or test rental), so it cannot be extended.";
  if (rental.status === "disputed") return "This rental is disputed: it cannot be extended until the dispute is decided.";
  if (rental.status !== "active" || rental.endsAt <= now)
    return `This rental ended on ${formatDateTime(rental.endsAt)}: it can no longer be extended. Rent the agent again from the marketplace.`;
  if (agent.status !== "available") return "The agent is offline right now, so the rental cannot be extended. Try again once it is back.";
  return null;
}

export default async function ExtendRentalPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const account = await requireSignedInAccount();
  const rental = await findRenterRental(account, id);
  if (!rental) notFound();
  const agent = await db.agent.findUniqueOrThrow({
    where: { id: rental.agentId },
    select: { status: true, pricePerHour: true, pricePerDay: true, pricePerMonth: true },
  });
  const now = new Date();
  const chain = escrowChain();
  const priceOf = { hour: agent.pricePerHour, day: agent.pricePerDay, month: agent.pricePerMonth };
  const prices = ORDER.slice(ORDER.indexOf(rental.durationType)).flatMap((durationType) =>
    priceOf[durationType] === null ? [] : [{ durationType, micro: String(priceOf[durationType]) }],
  );
  const refused =
    refusal(rental, agent, now) ??
    (!chain ? "Payments are not configured on this server, so rentals cannot be extended." : null) ??
    (prices.length === 0 ? "The agent is no longer rented per hour, day or month of this length, so the rental cannot be extended." : null);

  return (
    <main id="main" tabIndex={-1} className={styles.page}>
      <p className="back-link" style={{ margin: "0 0 0.5rem" }}>
        <Link href={`/dashboard/rentals/${rental.id}`}>
          <span aria-hidden="true">←</span> {rental.agentName}
        </Link>
      </p>
      <h1>Extend your rental of {rental.agentName}</h1>
      <section aria-labelledby="extend-heading" className={`surface ${styles.panel}`}>
        <h2 id="extend-heading">Keep the agent longer</h2>
        <p>
          It ends <time dateTime={rental.endsAt.toISOString()}>{formatDateTime(rental.endsAt)}</time>. Extending keeps your code, your chat
          and the conversation: only the end moves.
        </p>
        {refused || !chain || !rental.renterAddress ? (
          <p className="muted" role="status">
            {refused}
          </p>
        ) : (
          <ExtendStepper
            code={rental.code}
            endsAt={rental.endsAt.toISOString()}
            prices={prices}
            renterAddress={rental.renterAddress}
            chain={chain}
          />
        )}
      </section>
    </main>
  );
}
