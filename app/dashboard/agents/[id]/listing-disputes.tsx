// The disputes of one listing, for its owner: open ones with the renter's reason, the evidence,
// the owner's answer in words and the Accept button; decided ones with their outcome and answer.
import type { Hex } from "viem";
import { DisputeEvidence } from "@/app/dashboard/_components/dispute-evidence";
import { OwnerAnswer } from "@/app/dashboard/_components/owner-answer";
import type { EscrowChain } from "@/lib/chain/escrow-chain";
import { describeDisputeOutcome } from "@/lib/disputes/describe-dispute-outcome";
import type { DisputeSummary } from "@/lib/disputes/list-disputes";
import type { DisputeEvidence as Evidence } from "@/lib/disputes/load-dispute-evidence";
import { formatDateTime } from "@/lib/format/date-time";
import { disputeReasonLabel } from "@/lib/format/dispute-reason";
import { formatSpan } from "@/lib/format/span";
import styles from "../../dashboard.module.css";
import { saveDisputeAnswerAction } from "../dispute-answer-actions";
import { AcceptDispute } from "./accept-dispute";
import { DisputeAnswerForm } from "./dispute-answer-form";

type Props = { disputes: { dispute: DisputeSummary; evidence: Evidence | null }[]; chain: EscrowChain | null; now: Date };

export function ListingDisputes({ disputes, chain, now }: Props) {
  return (
    <>
      {disputes.map(({ dispute, evidence }) => {
        const { rental } = dispute;
        // The reference, never the id: its first characters are the renter's code.
        const { ref } = rental;
        const open = dispute.resolvedAt === null;
        return (
          <article key={ref} className={styles.dispute} aria-labelledby={`dispute-${ref}`}>
            <h3 id={`dispute-${ref}`}>
              Rental {ref}: {open ? "open" : "decided"} dispute
            </h3>
            <p className="hint">
              Opened {formatDateTime(dispute.openedAt)}
              {open && ` (${formatSpan(now.getTime() - dispute.openedAt.getTime())} ago)`}.
            </p>
            {open && evidence ? (
              <>
                <DisputeEvidence
                  reason={dispute.reason}
                  details={dispute.details}
                  evidence={evidence}
                  priceMicro={rental.priceMicro}
                  label={`rental ${ref}`}
                />
                <DisputeAnswerForm
                  action={saveDisputeAnswerAction.bind(null, rental.agentId, ref)}
                  saved={
                    dispute.ownerAnswer && dispute.ownerAnsweredAt
                      ? { answer: dispute.ownerAnswer, answeredAt: dispute.ownerAnsweredAt }
                      : null
                  }
                />
                <p>
                  If the renter is right, accept: they get the price and the fee back at once and the dispute ends. Otherwise an arbiter
                  decides within a day or two from the same evidence.
                </p>
                {chain && rental.payoutAddress ? (
                  <AcceptDispute
                    escrowId={rental.escrowId as Hex}
                    wallet={{ address: rental.payoutAddress, who: "the wallet this listing is paid to" }}
                    chain={chain}
                  />
                ) : (
                  <p className="muted">Payments are not configured on this server, so the dispute cannot be accepted here.</p>
                )}
              </>
            ) : (
              <>
                <p>{disputeReasonLabel(dispute.reason)}.</p>
                <OwnerAnswer answer={dispute.ownerAnswer} answeredAt={dispute.ownerAnsweredAt} label="Your answer" />
                {rental.disputeRefundMicro !== null && (
                  <p>
                    {
                      describeDisputeOutcome({
                        refundMicro: rental.disputeRefundMicro,
                        priceMicro: rental.priceMicro,
                        feeMicro: rental.feeMicro,
                        resolvedBy: dispute.resolvedBy,
                        ended: dispute.resolvedAt !== null && rental.endsAt <= dispute.resolvedAt,
                      }).owner
                    }
                  </p>
                )}
              </>
            )}
          </article>
        );
      })}
    </>
  );
}
