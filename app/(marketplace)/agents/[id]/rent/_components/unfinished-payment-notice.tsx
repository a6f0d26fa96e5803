"use client";
// A payment sent from this browser whose code was never shown (tab closed, confirm failed): get
// the code for it, or forget it.
import type { PendingPayment } from "@/lib/checkout/pending-payment";
import { formatDateTime } from "@/lib/format/date-time";

export type UnfinishedPaymentNoticeProps = {
  payment: PendingPayment;
  // What the recovery is doing or why it failed, in words; null before it starts.
  recovering: string | null;
  onRecover: (payment: PendingPayment) => Promise<void>;
  onDismiss: (payment: PendingPayment) => void;
};

export function UnfinishedPaymentNotice({ payment, recovering, onRecover, onDismiss }: UnfinishedPaymentNoticeProps) {
  return (
    <div className="notice" role="note" data-testid="unfinished-payment">
      <p>
        A payment for this agent was sent from this browser on {formatDateTime(new Date(payment.at))} but its rental code was not shown yet.
      </p>
      <p>
        <button type="button" className="button" onClick={() => void onRecover(payment)}>
          Get my rental code
        </button>{" "}
        <button type="button" className="button button-quiet" onClick={() => onDismiss(payment)}>
          Dismiss
        </button>
      </p>
      {recovering && <p role="status">{recovering}</p>}
    </div>
  );
}
