"use client";

import { useEffect, useMemo, useRef, useState } from "react";
import type { EIP1193Provider, Hex } from "viem";
import "viem/window";
import type { Config } from "wagmi";
import stepper from "@/app/dashboard/_components/wallet-stepper.module.css";
import { StepperOutcome, sendButtonLabel } from "@/app/dashboard/_components/wallet-stepper-parts";
import type { EscrowChain } from "@/lib/chain/escrow-chain";
import { createEscrowWalletConfig, noWalletMessage, WalletProblem } from "@/lib/chain/escrow-wallet";
import { shortHex as short } from "@/lib/chain/short-hex";
import { connectForDispute, describeDisputeError, sendDispute } from "@/lib/disputes/open-dispute";
import { expectRentalChange } from "./rental-live-updates";

export type DisputeStepperProps = {
  /** The rental's bytes32 id on the escrow (random; never derived from the rental code). */
  escrowId: Hex;
  endsAt: string;
  /** The wallet that paid the escrow (only it may dispute), lower-case; null if unknown. */
  renterAddress: string | null;
  chain: EscrowChain;
  autoStart?: boolean;
};

type ConnectState =
  | { kind: "idle" }
  | { kind: "connecting" }
  | { kind: "switching" }
  | { kind: "connected"; address: Hex }
  | { kind: "error"; message: string };
type DisputeState =
  | { kind: "idle" }
  | { kind: "checking" }
  | { kind: "wallet" }
  | { kind: "pending"; hash: Hex }
  | { kind: "confirmed"; hash: Hex }
  | { kind: "failed"; message: string; hash?: Hex };

/**
 * Opening a dispute, as a two-step stepper: 1. connect the wallet (and switch it to the escrow's
 * chain), 2. send `openDispute(escrowId)` and follow it: waiting for the wallet →
 * pending → confirmed, or failed with a retry. The service learns about the dispute from the chain
 * (the event reader, within a minute), never from this page; the page then follows by itself
 * (./rental-live-updates.tsx).
 */
export function DisputeStepper({ escrowId, endsAt, renterAddress, chain, autoStart = false }: DisputeStepperProps) {
  const [connection, setConnection] = useState<ConnectState>({ kind: "idle" });
  const [dispute, setDispute] = useState<DisputeState>({ kind: "idle" });
  const started = useRef(false);
  const statusRef = useRef<HTMLParagraphElement>(null);

  const config = useMemo<Config | null>(() => {
    if (typeof window === "undefined") return null;
    return createEscrowWalletConfig(chain, { provider: window.ethereum as EIP1193Provider | undefined });
  }, [chain]);

  const connected = connection.kind === "connected";
  const phase: 1 | 2 | 3 = dispute.kind === "confirmed" ? 3 : connected ? 2 : 1;

  async function runConnect() {
    setDispute({ kind: "idle" });
    try {
      if (!config || !window.ethereum) throw new WalletProblem(noWalletMessage());
      const address = await connectForDispute(config, chain, renterAddress, (step) => setConnection({ kind: step }));
      setConnection({ kind: "connected", address });
    } catch (error) {
      setConnection({ kind: "error", message: describeDisputeError(error, chain, endsAt) });
    }
  }

  async function runDispute() {
    if (!config || connection.kind !== "connected") return;
    try {
      const outcome = await sendDispute(config, chain, { escrowId, endsAt, account: connection.address }, (step) => setDispute(step));
      setDispute(outcome.ok ? { kind: "confirmed", hash: outcome.hash } : { kind: "failed", hash: outcome.hash, message: outcome.message });
      if (outcome.ok) expectRentalChange("dispute");
    } catch (error) {
      if (error instanceof WalletProblem && /changed accounts/.test(error.message)) setConnection({ kind: "idle" });
      setDispute((d) => ({
        kind: "failed",
        message: describeDisputeError(error, chain, endsAt),
        hash: d.kind === "pending" ? d.hash : undefined,
      }));
    }
  }

  // biome-ignore lint/correctness/useExhaustiveDependencies: once, on mount; the ref guards it and the handler is new every render.
  useEffect(() => {
    if (autoStart && !started.current) {
      started.current = true;
      void runConnect();
    }
  }, [autoStart]);

  const status = statusText(connection, dispute, chain);
  useEffect(() => {
    if (dispute.kind === "confirmed" || dispute.kind === "failed" || connection.kind === "error") statusRef.current?.focus();
  }, [dispute.kind, connection.kind]);

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
                : `Use the wallet that paid for this rental${renterAddress ? ` (${short(renterAddress)})` : ""}, on ${chain.chainName}.`}
            </p>
            {phase === 1 && (
              <button
                type="button"
                className="button button-primary"
                onClick={() => void runConnect()}
                disabled={connection.kind === "connecting" || connection.kind === "switching"}
                aria-busy={connection.kind === "connecting" || connection.kind === "switching"}
              >
                {connection.kind === "connecting"
                  ? "Waiting for your wallet…"
                  : connection.kind === "switching"
                    ? `Switching to ${chain.chainName}…`
                    : "Connect wallet"}
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
            <p className={stepper.stepTitle}>Open the dispute on chain{phase > 2 && <span className="visually-hidden"> (done)</span>}</p>
            <p className="hint">
              Your wallet asks you to approve one transaction (a small network fee, no USDC). The payment is then frozen until an arbiter
              decides.
            </p>
            {phase === 2 && (
              <button
                type="button"
                className="button button-primary"
                onClick={() => void runDispute()}
                disabled={dispute.kind === "checking" || dispute.kind === "wallet" || dispute.kind === "pending"}
                aria-busy={dispute.kind === "checking" || dispute.kind === "wallet" || dispute.kind === "pending"}
              >
                {sendButtonLabel(dispute.kind, "Open the dispute")}
              </button>
            )}
          </div>
        </li>
      </ol>
      <StepperOutcome
        statusRef={statusRef}
        status={status}
        failed={dispute.kind === "failed" || connection.kind === "error"}
        reloadLabel={null}
        hash={"hash" in dispute ? dispute.hash : undefined}
        chain={chain}
      />
    </div>
  );
}

function statusText(connection: ConnectState, dispute: DisputeState, chain: EscrowChain): string {
  if (connection.kind === "error") return connection.message;
  switch (dispute.kind) {
    case "checking":
      return "Checking with the escrow that the dispute can be opened…";
    case "wallet":
      return "Waiting for you to approve the transaction in your wallet…";
    case "pending":
      return `Transaction sent. Waiting for ${chain.chainName} to include it; this usually takes a few seconds.`;
    case "confirmed":
      return "Dispute opened: the payment is frozen on chain. This page shows the rental as disputed within a minute.";
    case "failed":
      return dispute.message;
  }
  if (connection.kind === "connecting") return "Waiting for your wallet to share an account…";
  if (connection.kind === "switching") return `Asking your wallet to switch to ${chain.chainName}…`;
  return "";
}
