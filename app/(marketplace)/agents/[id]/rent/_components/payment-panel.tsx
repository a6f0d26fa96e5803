"use client";
// The Payment part: the stepper, its live announcement, the notice, and Pay / Retry / Cancel.
import Link from "next/link";
import { AGENT_CHECK } from "@/lib/checkout/steps";
import { formatUsdc } from "@/lib/format/usdc";
import styles from "./checkout.module.css";
import { StepList } from "./step-list";
import type { WalletPaymentState } from "./use-wallet-payment";

export type PaymentPanelProps = Pick<
  WalletPaymentState,
  | "agentName"
  | "steps"
  | "order"
  | "status"
  | "started"
  | "running"
  | "walletOpen"
  | "failed"
  | "notice"
  | "totals"
  | "onChain"
  | "run"
  | "cancel"
> & { connected: boolean };

export function PaymentPanel({
  agentName,
  steps,
  order,
  status,
  started,
  running,
  walletOpen,
  failed,
  notice,
  totals,
  onChain,
  run,
  cancel,
  connected,
}: PaymentPanelProps) {
  const payLabel = `Pay ${formatUsdc(totals.total)}`;
  return (
    <div className={styles.payment}>
      <h3 id="steps-heading">Payment</h3>
      <StepList steps={steps} order={order} idle={{ quote: AGENT_CHECK.idle(agentName) }} />
      <p className="visually-hidden" role="status" aria-live="polite" data-testid="step-announcement">
        {status}
      </p>
      {!started && (
        <p className="hint">
          {steps.plan === "permit"
            ? "You approve the payment in your wallet with a signature (no gas), then send one transaction."
            : "You approve USDC, then send the payment."}
        </p>
      )}

      {notice && (
        <p className="notice" role="alert" data-testid="checkout-notice">
          {notice}
        </p>
      )}

      <div className={styles.buttons}>
        {connected && onChain && !failed && !running && (
          <button type="button" className="button button-primary" onClick={() => void run("quote")}>
            {payLabel}
          </button>
        )}
        {walletOpen && (
          <button type="button" className="button button-primary" disabled>
            Waiting for your wallet…
          </button>
        )}
        {running && !walletOpen && (
          <p className={styles.working} data-testid="checkout-working">
            Working: the steps above update on their own. You can keep this page open while the network confirms.
          </p>
        )}
        {failed && (
          <button type="button" className="button button-primary" onClick={() => void run(failed)}>
            Retry
          </button>
        )}
        {(walletOpen || failed) && (
          <button type="button" className="button" onClick={cancel}>
            Cancel
          </button>
        )}
        {/* Nothing was paid before the quote: another agent is as good a way on as Retry. */}
        {failed === "quote" && (
          <Link href="/" className="button">
            Pick another agent
          </Link>
        )}
      </div>
      {!connected && <p className="hint">Connect a wallet to pay {formatUsdc(totals.total)}.</p>}
    </div>
  );
}
