"use client";

import { type ReactNode, useEffect, useMemo, useRef, useState } from "react";
import type { Address, EIP1193Provider, Hex } from "viem";
import "viem/window";
import type { Config } from "wagmi";
import stepper from "@/app/dashboard/_components/wallet-stepper.module.css";
import type { EscrowChain } from "@/lib/chain/escrow-chain";
import { type ConnectStep, connectEscrowWallet, createEscrowWalletConfig, noWalletMessage, WalletProblem } from "@/lib/chain/escrow-wallet";
import { shortHex as short } from "@/lib/chain/short-hex";
import { StepperOutcome, sendButtonLabel } from "./wallet-stepper-parts";

/** What a flow's send reports while it runs: simulating, waiting for the wallet, sent. */
export type SendStep = { kind: "checking" } | { kind: "wallet" } | { kind: "pending"; hash: Hex };
/** How a flow's send ended; a success may carry what the confirmed words need (`R`). */
export type SendOutcome<R extends object = object> = ({ ok: true; hash: Hex } & R) | { ok: false; hash?: Hex; message: string };

type Connection = { kind: "idle" | ConnectStep } | { kind: "connected"; address: Address } | { kind: "error"; message: string };
type Sending<R extends object> =
  | { kind: "idle" | "checking" | "wallet" }
  | { kind: "pending"; hash: Hex }
  | { kind: "confirmed"; hash: Hex; outcome: R }
  | { kind: "failed"; message: string; hash?: Hex };

/** The steps of one wallet flow (open a dispute, decide one, withdraw, extend a rental): only what differs. */
export type WalletFlow<R extends object = object> = {
  chain: EscrowChain;
  /** Connects the account the flow needs on the escrow's chain (connectEscrowWallet); throws in words. */
  connect: (config: Config, onStep: (step: ConnectStep) => void) => Promise<Address>;
  /** Sends the flow's transaction from `account` and follows it to its receipt. */
  send: (config: Config, account: Address, onStep: (step: SendStep) => void) => Promise<SendOutcome<R>>;
  /** Any error of connect or send, in words. */
  describeError: (error: unknown) => string;
  /** After a send that threw: must the wallet be connected again (say, it changed accounts)? */
  reconnectAfter?: (error: unknown) => boolean;
  /** Runs once the transaction is confirmed (refresh the page, tell the live updates). */
  onConfirmed?: (outcome: R & { hash: Hex }) => void;
  /** Connect as soon as the stepper appears (the person pressed a button to get here). */
  autoStart?: boolean;
};

/** A flow's connect that takes only `address`, refusing any other account in the words of `otherwise`. */
export function connectAs(chain: EscrowChain, address: string, otherwise: (other: Address) => string): WalletFlow["connect"] {
  return (config, onStep) => connectEscrowWallet(config, chain, { address, otherwise }, onStep);
}

const BUSY = new Set(["connecting", "switching", "checking", "wallet", "pending"]);

/**
 * The state of a two-step wallet flow: 1. connect (and switch) the wallet, 2. send the
 * transaction and follow it: checking → waiting for the wallet → pending → confirmed, or failed
 * with a retry. Every wallet flow of the dashboard runs on it (WalletStepper draws it).
 */
export function useWalletStepper<R extends object>(flow: WalletFlow<R>) {
  const { chain } = flow;
  const [connection, setConnection] = useState<Connection>({ kind: "idle" });
  const [sending, setSending] = useState<Sending<R>>({ kind: "idle" });
  const started = useRef(false);
  const statusRef = useRef<HTMLParagraphElement>(null);
  const config = useMemo<Config | null>(
    () =>
      typeof window === "undefined" ? null : createEscrowWalletConfig(chain, { provider: window.ethereum as EIP1193Provider | undefined }),
    [chain],
  );
  const phase: 1 | 2 | 3 = sending.kind === "confirmed" ? 3 : connection.kind === "connected" ? 2 : 1;

  async function runConnect() {
    setSending({ kind: "idle" });
    try {
      if (!config || !window.ethereum) throw new WalletProblem(noWalletMessage());
      const address = await flow.connect(config, (step) => setConnection({ kind: step }));
      setConnection({ kind: "connected", address });
    } catch (error) {
      setConnection({ kind: "error", message: flow.describeError(error) });
    }
  }

  async function runSend() {
    if (!config || connection.kind !== "connected") return;
    try {
      const outcome = await flow.send(config, connection.address, setSending);
      if (outcome.ok) {
        const { ok: _ok, hash, ...rest } = outcome;
        setSending({ kind: "confirmed", hash, outcome: rest as unknown as R });
        flow.onConfirmed?.(outcome);
      } else {
        setSending({ kind: "failed", hash: outcome.hash, message: outcome.message });
      }
    } catch (error) {
      if (flow.reconnectAfter?.(error)) setConnection({ kind: "idle" });
      setSending((s) => ({ kind: "failed", message: flow.describeError(error), hash: s.kind === "pending" ? s.hash : undefined }));
    }
  }

  // biome-ignore lint/correctness/useExhaustiveDependencies: once, on mount; the ref guards it and the handler is new every render.
  useEffect(() => {
    if (flow.autoStart && !started.current) {
      started.current = true;
      void runConnect();
    }
  }, [flow.autoStart]);
  useEffect(() => {
    if (sending.kind === "confirmed" || sending.kind === "failed" || connection.kind === "error") statusRef.current?.focus();
  }, [sending.kind, connection.kind]);

  return { chain, connection, sending, phase, statusRef, runConnect, runSend, busy: (kind: string) => BUSY.has(kind) };
}

export type WalletStepperWords<R extends object> = {
  /** Step 1's hint before connecting: which wallet to use ("the wallet that paid for this rental (0x12…)"). */
  wallet: string;
  /** Step 2's title and hint ("Withdraw 1.50 USDC"; "Your wallet asks you to approve one transaction…"). */
  title: ReactNode;
  hint: ReactNode;
  /** The send button's words before the first try. */
  send: string;
  /** The status while the escrow is asked whether the transaction can go through. */
  checking: string;
  /** The status once confirmed. */
  confirmed: (outcome: R) => string;
  /** Shown once confirmed: a button that reloads the page. */
  reload?: string;
};

/**
 * A wallet flow drawn as the dashboard's two-step stepper; `children` go in step 2 above its
 * button (the extension's choice of periods, say). Takes the flow (useWalletStepper's argument)
 * and the words of its steps: a new flow costs only those.
 */
export function WalletStepper<R extends object>({
  flow,
  words,
  children,
}: {
  flow: WalletFlow<R>;
  words: WalletStepperWords<R>;
  children?: ReactNode;
}) {
  const { chain, connection, sending, phase, statusRef, runConnect, runSend, busy } = useWalletStepper(flow);
  const connecting = busy(connection.kind);
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
                : `Use ${words.wallet}, on ${chain.chainName}.`}
            </p>
            {phase === 1 && (
              <button
                type="button"
                className="button button-primary"
                onClick={() => void runConnect()}
                disabled={connecting}
                aria-busy={connecting}
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
            <p className={stepper.stepTitle}>
              {words.title}
              {phase > 2 && <span className="visually-hidden"> (done)</span>}
            </p>
            <p className="hint">{words.hint}</p>
            {phase === 2 && children}
            {phase === 2 && (
              <button
                type="button"
                className="button button-primary"
                onClick={() => void runSend()}
                disabled={busy(sending.kind)}
                aria-busy={busy(sending.kind)}
              >
                {sendButtonLabel(sending.kind, words.send)}
              </button>
            )}
          </div>
        </li>
      </ol>
      <StepperOutcome
        statusRef={statusRef}
        status={statusText(connection, sending, chain, words)}
        failed={sending.kind === "failed" || connection.kind === "error"}
        reloadLabel={sending.kind === "confirmed" ? (words.reload ?? null) : null}
        hash={"hash" in sending ? sending.hash : undefined}
        chain={chain}
      />
    </div>
  );
}

function statusText<R extends object>(
  connection: Connection,
  sending: Sending<R>,
  chain: EscrowChain,
  words: WalletStepperWords<R>,
): string {
  if (connection.kind === "error") return connection.message;
  switch (sending.kind) {
    case "checking":
      return words.checking;
    case "wallet":
      return "Waiting for you to approve the transaction in your wallet…";
    case "pending":
      return `Transaction sent. Waiting for ${chain.chainName} to include it; this usually takes a few seconds.`;
    case "confirmed":
      return words.confirmed(sending.outcome);
    case "failed":
      return sending.message;
  }
  if (connection.kind === "connecting") return "Waiting for your wallet to share an account…";
  if (connection.kind === "switching") return `Asking your wallet to switch to ${chain.chainName}…`;
  return "";
}
