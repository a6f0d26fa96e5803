"use client";

import { useRouter } from "next/navigation";
import { useEffect, useMemo, useRef, useState } from "react";
import type { Address, EIP1193Provider, Hex } from "viem";
import "viem/window";
import type { Config } from "wagmi";
import stepper from "@/app/dashboard/_components/wallet-stepper.module.css";
import type { EscrowChain } from "@/lib/chain/escrow-chain";
import {
  connectEscrowWallet,
  createEscrowWalletConfig,
  describeWalletError,
  noWalletMessage,
  WalletProblem,
} from "@/lib/chain/escrow-wallet";
import { shortHex as short } from "@/lib/chain/short-hex";
import { formatUsdc } from "@/lib/format/usdc";
import { describeWithdrawError, sendWithdraw } from "@/lib/payouts/withdraw-credit";
import styles from "../../dashboard.module.css";

type Props = { chain: EscrowChain; holder: Address; creditMicro: string };

type State =
  | { kind: "idle" }
  | { kind: "connecting" | "switching" | "checking" | "wallet" }
  | { kind: "connected"; address: Address }
  | { kind: "pending"; hash: Hex }
  | { kind: "done"; hash: Hex; amount: bigint }
  | { kind: "failed"; message: string; hash?: Hex };

const BUSY = new Set(["connecting", "switching", "checking", "wallet", "pending"]);

/**
 * Withdrawing one address's credit, as the checkout and disputes do it: 1. connect the wallet that
 * holds the credit (switched to the escrow's chain), 2. send withdraw() and follow it to its
 * receipt; the page's figures then refresh.
 */
export function WithdrawStepper({ chain, holder, creditMicro }: Props) {
  const router = useRouter();
  const [state, setState] = useState<State>({ kind: "idle" });
  const [address, setAddress] = useState<Address | null>(null);
  const statusRef = useRef<HTMLParagraphElement>(null);
  const config = useMemo<Config | null>(() => {
    if (typeof window === "undefined") return null;
    return createEscrowWalletConfig(chain, { provider: window.ethereum as EIP1193Provider | undefined });
  }, [chain]);
  const amount = formatUsdc(BigInt(creditMicro));
  const phase = address ? 2 : 1;

  async function connect() {
    try {
      if (!config || !window.ethereum) throw new WalletProblem(noWalletMessage());
      const mustBe = {
        address: holder,
        otherwise: (other: Address) =>
          `Your wallet is on account ${short(other)}, but the credit belongs to ${short(holder)}. Switch to that account in your wallet, then press “Connect wallet” again.`,
      };
      const connected = await connectEscrowWallet(config, chain, mustBe, (step) => setState({ kind: step }));
      setAddress(connected);
      setState({ kind: "connected", address: connected });
    } catch (error) {
      setState({ kind: "failed", message: describeWalletError(error, chain) });
    }
  }

  async function withdraw() {
    if (!config || !address) return;
    try {
      const outcome = await sendWithdraw(config, chain, address, (step) => setState(step));
      setState(
        outcome.ok
          ? { kind: "done", hash: outcome.hash, amount: outcome.amount }
          : { kind: "failed", hash: outcome.hash, message: outcome.message },
      );
      if (outcome.ok) router.refresh();
    } catch (error) {
      setState((s) => ({ kind: "failed", message: describeWithdrawError(error, chain), hash: s.kind === "pending" ? s.hash : undefined }));
    }
  }

  useEffect(() => {
    if (state.kind === "done" || state.kind === "failed") statusRef.current?.focus();
  }, [state.kind]);

  const busy = BUSY.has(state.kind);
  const hash = "hash" in state ? state.hash : undefined;
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
              {address
                ? `Connected as ${short(address)} on ${chain.chainName}.`
                : `Use the wallet ${short(holder)}, on ${chain.chainName}.`}
            </p>
            {phase === 1 && (
              <button type="button" className="button button-primary" onClick={() => void connect()} disabled={busy} aria-busy={busy}>
                {state.kind === "connecting"
                  ? "Waiting for your wallet…"
                  : state.kind === "switching"
                    ? `Switching to ${chain.chainName}…`
                    : "Connect wallet"}
              </button>
            )}
          </div>
        </li>
        <li
          className={stepper.step}
          aria-current={phase === 2 ? "step" : undefined}
          data-state={state.kind === "done" ? "done" : phase === 2 ? "current" : "todo"}
        >
          <span className={stepper.stepNumber} aria-hidden="true">
            {state.kind === "done" ? "✓" : "2"}
          </span>
          <div>
            <p className={stepper.stepTitle}>Withdraw {amount}</p>
            <p className="hint">
              Your wallet asks you to approve one transaction (a small network fee); the USDC arrives in the same wallet.
            </p>
            {phase === 2 && state.kind !== "done" && (
              <button type="button" className="button button-primary" onClick={() => void withdraw()} disabled={busy} aria-busy={busy}>
                {state.kind === "checking"
                  ? "Checking…"
                  : state.kind === "wallet"
                    ? "Waiting for your wallet…"
                    : state.kind === "pending"
                      ? "Waiting for the chain…"
                      : state.kind === "failed"
                        ? "Try again"
                        : `Withdraw ${amount}`}
              </button>
            )}
          </div>
        </li>
      </ol>
      <p ref={statusRef} tabIndex={-1} role="status" className={`${stepper.stepStatus} ${state.kind === "failed" ? styles.alert : ""}`}>
        {statusText(state, chain)}
      </p>
      {hash && (
        <p className="hint">
          Transaction{" "}
          {chain.explorerUrl ? (
            <a href={`${chain.explorerUrl}/tx/${hash}`} target="_blank" rel="noreferrer">
              <code>{short(hash)}</code>
              <span className="visually-hidden"> (opens the block explorer in a new tab)</span>
            </a>
          ) : (
            <code className={styles.address}>{hash}</code>
          )}
        </p>
      )}
    </div>
  );
}

function statusText(state: State, chain: EscrowChain): string {
  switch (state.kind) {
    case "connecting":
      return "Waiting for your wallet to share an account…";
    case "switching":
      return `Asking your wallet to switch to ${chain.chainName}…`;
    case "checking":
      return "Checking the credit with the escrow…";
    case "wallet":
      return "Waiting for you to approve the transaction in your wallet…";
    case "pending":
      return `Transaction sent. Waiting for ${chain.chainName} to include it; this usually takes a few seconds.`;
    case "done":
      return `Withdrawn: ${formatUsdc(state.amount)} is in your wallet.`;
    case "failed":
      return state.message;
    default:
      return "";
  }
}
