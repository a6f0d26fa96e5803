// The console's history: decided disputes, newest decision first, a page at a time, each with its
// outcome (who decided and the refund), when, the transaction, the renter's words and the owner's
// answer. By the rental's reference and the paying wallet, never the code.
import Link from "next/link";
import { OwnerAnswer } from "@/app/dashboard/_components/owner-answer";
import { TransactionLink } from "@/app/dashboard/_components/transaction-link";
import { describeDisputeOutcome } from "@/lib/disputes/describe-dispute-outcome";
import { DECIDED_PER_PAGE, type DecidedDispute } from "@/lib/disputes/list-disputes";
import { formatDateTime } from "@/lib/format/date-time";
import { disputeReasonLabel } from "@/lib/format/dispute-reason";
import { formatCount } from "@/lib/format/number";
import { plural } from "@/lib/format/plural";
import styles from "../../dashboard.module.css";

type Props = { disputes: DecidedDispute[]; total: number; page: number; explorerUrl: string | null };

const pageHref = (page: number) => (page === 1 ? "/dashboard/disputes#decided" : `/dashboard/disputes?page=${page}#decided`);

export function DecidedDisputes({ disputes, total, page, explorerUrl }: Props) {
  const first = (page - 1) * DECIDED_PER_PAGE + 1;
  const older = first - 1 + disputes.length < total;
  return (
    <>
      <p className="muted">
        {total === 0
          ? "No dispute has been decided yet."
          : disputes.length === 0
            ? `${plural(total, "decided dispute")} in all; this page is past the last of them.`
            : `${plural(total, "decided dispute")}, newest decision first${total > DECIDED_PER_PAGE ? `: ${formatCount(first)} to ${formatCount(first - 1 + disputes.length)}` : ""}.`}
      </p>
      {disputes.map((dispute) => {
        const { rental } = dispute;
        // The reference and the paying wallet, never the id: its first characters are the code.
        const { ref } = rental;
        const outcome =
          rental.disputeRefundMicro === null
            ? null
            : describeDisputeOutcome({
                refundMicro: rental.disputeRefundMicro,
                priceMicro: rental.priceMicro,
                feeMicro: rental.feeMicro,
                resolvedBy: dispute.resolvedBy,
                ended: rental.endsAt <= dispute.resolvedAt,
              });
        return (
          <article key={ref} className={styles.dispute} aria-labelledby={`decided-${ref}`}>
            <h3 id={`decided-${ref}`}>
              {rental.agent.name}, rental {ref}
            </h3>
            {outcome ? (
              <p>
                <strong>{outcome.title}.</strong> {outcome.arbiter}
              </p>
            ) : (
              <p>Decided; the service has no record of the refund.</p>
            )}
            <dl className={styles.evidenceFacts}>
              <dt>Decided</dt>
              <dd>
                <time dateTime={dispute.resolvedAt.toISOString()}>{formatDateTime(dispute.resolvedAt)}</time>
              </dd>
              <dt>Transaction</dt>
              <dd>
                <TransactionLink hash={dispute.resolveTxHash} explorerUrl={explorerUrl} />
              </dd>
              <dt>Opened</dt>
              <dd>
                <time dateTime={dispute.openedAt.toISOString()}>{formatDateTime(dispute.openedAt)}</time>
              </dd>
              <dt>Paid by</dt>
              <dd>
                <code className={styles.address}>{rental.renterAddress ?? "no wallet on record"}</code>
              </dd>
            </dl>
            <p>{disputeReasonLabel(dispute.reason)}.</p>
            {dispute.details && <blockquote className={styles.quote}>{dispute.details}</blockquote>}
            <OwnerAnswer
              answer={dispute.ownerAnswer}
              answeredAt={dispute.ownerAnsweredAt}
              unanswered="The owner did not answer in words."
            />
          </article>
        );
      })}
      {(page > 1 || older) && (
        <nav aria-label="Decided disputes" className={styles.decisions}>
          {page > 1 && <Link href={pageHref(Math.min(page - 1, Math.max(1, Math.ceil(total / DECIDED_PER_PAGE))))}>← Newer decisions</Link>}
          {older && <Link href={pageHref(page + 1)}>Older decisions →</Link>}
        </nav>
      )}
    </>
  );
}
