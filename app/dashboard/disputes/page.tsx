// /dashboard/disputes — the arbiter console: open disputes oldest first, with their age, the
// renter's reason, the owner's answer, the evidence the service measured (the rental's minutes as
// a strip, beside the health checks and calls) and the three decisions; below them the decided
// ones, newest first, a page at a time (?page=2). For a wallet signed in that holds ARBITER_ROLE on
// the escrow now: read on chain at every request, so a revoked arbiter sees nothing from the next
// one on.
import type { Metadata } from "next";
import Link from "next/link";
import type { Hex } from "viem";
import { z } from "zod";
import { DisputeEvidence } from "@/app/dashboard/_components/dispute-evidence";
import { OwnerAnswer } from "@/app/dashboard/_components/owner-answer";
import { checkArbiterRole } from "@/lib/auth/check-arbiter-role";
import { requireSignedInAccount } from "@/lib/auth/signed-in-account";
import { loadAvailability } from "@/lib/availability/load-availability";
import { escrowChain } from "@/lib/chain/escrow-chain";
import { listDecidedDisputes, listOpenDisputes } from "@/lib/disputes/list-disputes";
import { loadDisputeEvidence } from "@/lib/disputes/load-dispute-evidence";
import { formatDateTime } from "@/lib/format/date-time";
import { plural } from "@/lib/format/plural";
import { formatSpan } from "@/lib/format/span";
import { formatUsdc } from "@/lib/format/usdc";
import styles from "../dashboard.module.css";
import { ArbiterDecision } from "./_components/arbiter-decision";
import { DecidedDisputes } from "./_components/decided-disputes";

export const metadata: Metadata = { title: "Disputes" };

// The history's page; anything else is the first. Deep offsets cost more than anyone reads.
const pageSchema = z.coerce.number().int().min(1).max(1000).catch(1);

export default async function DisputesPage({ searchParams }: { searchParams: Promise<{ page?: string | string[] }> }) {
  const account = await requireSignedInAccount();
  const role = await checkArbiterRole(account);
  const arbiterWallet = role === "arbiter" ? account.walletAddress : null;
  if (!arbiterWallet) {
    return (
      <main id="main" tabIndex={-1}>
        <h1>Disputes</h1>
        {role === "unknown" ? (
          <p role="alert">
            The chain did not answer, so your arbiter role could not be checked and the disputes are not shown. Reload the page in a moment.
          </p>
        ) : (
          <p>
            This page is for the escrow&apos;s arbiters. Sign in with a wallet that holds the arbiter role; it is checked on chain each time
            you open this page. Renters find their disputes on <Link href="/dashboard/rentals">My rentals</Link>, owners on their listings.
          </p>
        )}
      </main>
    );
  }
  const now = new Date();
  const chain = escrowChain();
  const page = pageSchema.parse((await searchParams).page);
  const [disputes, decided] = await Promise.all([listOpenDisputes(), listDecidedDisputes(page)]);
  const [evidence, availability] = await Promise.all([
    Promise.all(disputes.map((d) => loadDisputeEvidence(d.rental, now))),
    loadAvailability(
      disputes.map((d) => d.rental.id),
      now,
    ),
  ]);

  return (
    <main id="main" tabIndex={-1}>
      <div className={styles.header}>
        <h1>Disputes</h1>
      </div>
      <p className="muted">
        {disputes.length === 0
          ? "No dispute is waiting for a decision."
          : `${plural(disputes.length, "dispute")} waiting, oldest first. Decide from the evidence; a dispute left undecided for 14 days can be settled by anyone as a full refund.`}
      </p>
      {disputes.map((dispute, i) => {
        const { rental } = dispute;
        // The reference and the paying wallet, never the id: its first characters are the code.
        const { ref } = rental;
        const terms = availability.get(rental.id);
        return (
          <section key={ref} className={styles.panel} aria-labelledby={`dispute-${ref}`}>
            <h2 id={`dispute-${ref}`}>
              {rental.agent.name}, rental {ref}
            </h2>
            <p className="hint">
              Opened {formatDateTime(dispute.openedAt)}, {formatSpan(now.getTime() - dispute.openedAt.getTime())} ago. Price{" "}
              {formatUsdc(rental.priceMicro)} + {formatUsdc(rental.feeMicro)} fee; rental from {formatDateTime(rental.startsAt)} to{" "}
              {formatDateTime(rental.endsAt)}. Paid by{" "}
              <code className={styles.address}>{rental.renterAddress ?? "no wallet on record"}</code>.
            </p>
            <DisputeEvidence
              reason={dispute.reason}
              details={dispute.details}
              answer={
                <OwnerAnswer
                  answer={dispute.ownerAnswer}
                  answeredAt={dispute.ownerAnsweredAt}
                  unanswered="The owner has not answered in words."
                />
              }
              evidence={evidence[i]}
              priceMicro={rental.priceMicro}
              label={`rental ${ref}`}
              availability={terms && { terms, startsAt: rental.startsAt, id: `minutes-${ref}` }}
            />
            {chain ? (
              <ArbiterDecision
                escrowId={rental.escrowId as Hex}
                price={String(rental.priceMicro)}
                fee={String(rental.feeMicro)}
                suggested={String(evidence[i].suggestedRefundMicro)}
                wallet={{ address: arbiterWallet, who: "your arbiter wallet" }}
                chain={chain}
              />
            ) : (
              <p className="muted">Payments are not configured on this server, so disputes cannot be decided here.</p>
            )}
          </section>
        );
      })}
      <section id="decided" className={styles.panel} aria-labelledby="decided-heading">
        <h2 id="decided-heading">Decided</h2>
        <DecidedDisputes {...decided} page={page} explorerUrl={chain?.explorerUrl ?? null} />
      </section>
    </main>
  );
}
