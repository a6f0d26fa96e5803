"use client";

import { useEffect, useMemo, useRef, useState } from "react";
import type { EIP1193Provider, Hex } from "viem";
import "viem/window";
import type { Config } from "wagmi";
import stepper from "@/app/dashboard/_components/wallet-stepper.module.css";
import type { EscrowChain } from "@/lib/chain/escrow-chain";
import { connectEscrowWallet, createEscrowWalletConfig, noWalletMessage, WalletProblem } from "@/lib/chain/escrow-wallet";
import { shortHex as short } from "@/lib/chain/short-hex";
import { type Decision, describeDecisionError, sendDecision } from "@/lib/disputes/decide-dispute";
import { StepperOutcome, sendButtonLabel } from "./wallet-stepper-parts";

export type DecisionStepperProps = {
  /** The rental's bytes32 id on the escrow. */
  escrowId: Hex;
  decision: Decision;
  /** The account the decision needs (the listing's payout wallet, or the signed-in arbiter). */
  wallet: { address: string; who: string };
  /** What step 2 sends, in words ("Refund 1.50 USDC to the renter"). */
  action: string;
  chain: EscrowChain;
};

type Connection = { kind: "idle" | "connecting" | "switching" } | { kind: "connected"; address: Hex } | { kind: "error"; message: string };
type Sending =
  | { kind: "idle" | "checking" | "wallet" }
  | { kind: "pending" | "confirmed"; hash: Hex }
  | { kind: "failed"; message: string; hash?: Hex };

/**
 * A dispute decision as a two-step stepper, like opening one: 1. connect the wallet the decision
 * needs, 2. send it (acceptDispute or resolveDispute) and follow it to its receipt. It connects as
 * soon as it appears (the person pressed a decision's button to get here). The service learns the
 * outcome from the chain (the event reader), never from this page.
 */
export function DecisionStepper({ escrowId, decision, wallet, action, chain }: DecisionStepperProps) {
  const [connection, setConnection] = useState<Connection>({ kind: "idle" });
  const [sending, setSending] = useState<Sending>({ kind: "idle" });
  const started = useRef(false);
  const statusRef = useRef<HTMLParagraphElement>(null);
  const config = useMemo<Config | null>(
    () =>
      typeof window === "undefined" ? null : createEscrowWalletConfig(chain, { provider: window.ethereum as EIP1193Provider | undefined }),
    [chain],
  );
  const phase = sending.kind === "confirmed" ? 3 : connection.kind === "connected" ? 2 : 1;
  const busy = (k: string) => ["connecting", "switching", "checking", "wallet", "pending"].includes(k);

  async function runConnect() {
    setSending({ kind: "idle" });
    try {
      if (!config || !window.ethereum) throw new WalletProblem(noWalletMessage());
      const mustBe = {
        address: wallet.address,
        otherwise: (a: Hex) =>
          `Your wallet is on account ${short(a)}; this needs ${wallet.who} (${short(wallet.address)}). Switch to it, then press “Connect wallet” again.`,
      };
      const address = await connectEscrowWallet(config, chain, mustBe, (step) => setConnection({ kind: step }));
      setConnection({ kind: "connected", address });
    } catch (error) {
      setConnection({ kind: "error", message: describeDecisionError(error, chain) });
    }
  }

  async function runSend() {
    if (!config || connection.kind !== "connected") return;
    try {
      const outcome = await sendDecision(config, chain, { escrowId, decision, account: connection.address }, setSending);
      setSending(outcome.ok ? { kind: "confirmed", hash: outcome.hash } : { kind: "failed", hash: outcome.hash, message: outcome.message });
    } catch (error) {
      if (error instanceof WalletProblem) setConnection({ kind: "idle" });
      setSending((s) => ({
        kind: "failed",
        message: describeDecisionError(error, chain),
        hash: s.kind === "pending" ? s.hash : undefined,
      }));
    }
  }

  // biome-ignore lint/correctness/useExhaustiveDependencies: once, on mount; the ref guards it and the handler is new every render.
  useEffect(() => {
    if (!started.current) {
      started.current = true;
      void runConnect();
    }
  }, []);
  useEffect(() => {
    if (["confirmed", "failed"].includes(sending.kind) || connection.kind === "error") statusRef.current?.focus();
  }, [sending.kind, connection.kind]);

  const status = statusText(connection, sending, chain);
  return (
    <div className={stepper.stepper}>
      <ol className={stepper.steps}>
        <li className={stepper.step} aria-current={phase === 1 ? "step" : undefined} data-state={phase > 1 ? "done" : "current"}>
          <span className={stepper.stepNumber} aria-hidden="true">
            {phase > 1 ? "✓" : "1"}
          </span>
          <div>
            <p className={stepper.stepTitle}>Connect your wallet{phase > 1 && <span className="visually-hidden"> (done)</span>}</p>
            <p className="hint">
              {connection.kind === "connected"
                ? `Connected as ${short(connection.address)} on ${chain.chainName}.`
                : `Use ${wallet.who} (${short(wallet.address)}) on ${chain.chainName}.`}
            </p>
            {phase === 1 && (
              <button
                type="button"
                className="button button-primary"
                onClick={() => void runConnect()}
                disabled={busy(connection.kind)}
                aria-busy={busy(connection.kind)}
              >
                {busy(connection.kind) ? "Waiting for your wallet…" : "Connect wallet"}
              </button>
            )}
          </div>
        </li>
        <li
          className={stepper.step}
          aria-current={phase === 2 ? "step" : undefined}
          data-state={phase > 2 ? "done" : phase === 2 ? "current" : "todo"}
        >
          <span className={stepper.stepNumber} aria-hidden="true">
            {phase > 2 ? "✓" : "2"}
          </span>
          <div>
            <p className={stepper.stepTitle}>
              {action}
              {phase > 2 && <span className="visually-hidden"> (done)</span>}
            </p>
            <p className="hint">Your wallet asks you to approve one transaction (a small network fee). The escrow pays out at once.</p>
            {phase === 2 && (
              <button
                type="button"
                className="button button-primary"
                onClick={() => void runSend()}
                disabled={busy(sending.kind)}
                aria-busy={busy(sending.kind)}
              >
                {sendButtonLabel(sending.kind, "Send the decision")}
              </button>
            )}
          </div>
        </li>
      </ol>
      <StepperOutcome
        statusRef={statusRef}
        status={status}
        failed={sending.kind === "failed" || connection.kind === "error"}
        reloadLabel={sending.kind === "confirmed" ? "Reload to see the outcome" : null}
        hash={"hash" in sending ? sending.hash : undefined}
        chain={chain}
      />
    </div>
  );
}

function statusText(connection: Connection, sending: Sending, chain: EscrowChain): string {
  if (connection.kind === "error") return connection.message;
  switch (sending.kind) {
    case "checking":
      return "Checking with the escrow that the decision can be made…";
    case "wallet":
      return "Waiting for you to approve the transaction in your wallet…";
    case "pending":
      return `Transaction sent. Waiting for ${chain.chainName} to include it; this usually takes a few seconds.`;
    case "confirmed":
      return "Decided on chain: the escrow has paid out. The dashboards show the outcome within a minute.";
    case "failed":
      return sending.message;
  }
  if (connection.kind === "connecting") return "Waiting for your wallet to share an account…";
  if (connection.kind === "switching") return `Asking your wallet to switch to ${chain.chainName}…`;
  return "";
}
