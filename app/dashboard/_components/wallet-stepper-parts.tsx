// What the wallet steppers (opening a dispute, deciding one) share below their steps: the status
// line (a live region that takes focus when the outcome is known), the reload button once the
// chain has confirmed, and the transaction's link; and the words of the send button.
import type { RefObject } from "react";
import type { Hex } from "viem";
import stepper from "@/app/dashboard/_components/wallet-stepper.module.css";
import type { EscrowChain } from "@/lib/chain/escrow-chain";
import { shortHex } from "@/lib/chain/short-hex";

type Props = {
  statusRef: RefObject<HTMLParagraphElement | null>;
  status: string;
  failed: boolean;
  /** Shown once the transaction is confirmed: the page reloads to show what the chain did. */
  reloadLabel: string | null;
  hash: Hex | undefined;
  chain: EscrowChain;
};

export function StepperOutcome({ statusRef, status, failed, reloadLabel, hash, chain }: Props) {
  const explorer = hash && chain.explorerUrl ? `${chain.explorerUrl}/tx/${hash}` : null;
  return (
    <>
      <p ref={statusRef} tabIndex={-1} role="status" className={`${stepper.stepStatus} ${failed ? stepper.failed : ""}`}>
        {status}
      </p>
      {reloadLabel && (
        <p>
          <button type="button" className="button" onClick={() => window.location.reload()}>
            {reloadLabel}
          </button>
        </p>
      )}
      {hash && (
        <p className="hint">
          Transaction{" "}
          {explorer ? (
            <a href={explorer} target="_blank" rel="noreferrer">
              <code>{shortHex(hash)}</code>
              <span className="visually-hidden"> (opens the block explorer in a new tab)</span>
            </a>
          ) : (
            <code style={{ overflowWrap: "anywhere" }}>{hash}</code>
          )}
        </p>
      )}
    </>
  );
}

/** The send button's words through a transaction's life; `idle` before the first try. */
export function sendButtonLabel(kind: string, idle: string): string {
  switch (kind) {
    case "checking":
      return "Checking…";
    case "wallet":
      return "Waiting for your wallet…";
    case "pending":
      return "Waiting for the chain…";
    case "failed":
      return "Try again";
    default:
      return idle;
  }
}
