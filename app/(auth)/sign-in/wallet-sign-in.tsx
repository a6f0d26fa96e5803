"use client";

import { useEffect, useRef, useState } from "react";
import { createWalletClient, custom, getAddress } from "viem";
import { createSiweMessage } from "viem/siwe";
import "viem/window";
import styles from "./sign-in.module.css";

const STATEMENT = "Sign in to Agent Rental Service";
const MESSAGE_TTL_MS = 10 * 60_000; // as long as the server's nonce lives

type Step = "idle" | "connecting" | "signing" | "checking";
const BUSY_LABEL: Record<Exclude<Step, "idle">, string> = {
  connecting: "Waiting for your wallet…",
  signing: "Sign the message in your wallet…",
  checking: "Signing you in…",
};

class SignInProblem extends Error {}

// Talks to the browser wallet (EIP-1193, window.ethereum) through viem's custom transport: asks
// for the account, builds the EIP-4361 message, has it personal_sign-ed and posts it. The message
// names the server's chain (`chainId`) when it has one: the server refuses any other. Signed in, it
// opens `destination`: the page the visitor asked for, or the dashboard.
async function signIn(onStep: (step: Step) => void, serverChainId: number | null, destination: string): Promise<void> {
  const provider = window.ethereum;
  if (!provider) {
    throw new SignInProblem(
      "No wallet found in this browser. Install a browser wallet (such as MetaMask or Coinbase Wallet) and reload this page, or sign in by e-mail.",
    );
  }
  const wallet = createWalletClient({ transport: custom(provider) });
  onStep("connecting");
  const [first] = await wallet.requestAddresses();
  if (!first) throw new SignInProblem("Your wallet shared no account. Unlock it, choose an account and try again.");
  const address = getAddress(first);
  const chainId = serverChainId ?? (await wallet.getChainId());

  const nonceRes = await fetch("/api/auth/nonce", { cache: "no-store" });
  if (!nonceRes.ok) throw new SignInProblem(await errorText(nonceRes));
  const { nonce } = (await nonceRes.json()) as { nonce: string };

  const issuedAt = new Date();
  const message = createSiweMessage({
    domain: window.location.host,
    uri: window.location.origin,
    address,
    chainId,
    nonce,
    version: "1",
    statement: STATEMENT,
    issuedAt,
    expirationTime: new Date(issuedAt.getTime() + MESSAGE_TTL_MS),
  });
  onStep("signing");
  const signature = await wallet.signMessage({ account: address, message });

  onStep("checking");
  const res = await fetch("/api/auth/siwe", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ message, signature }),
  });
  if (!res.ok) throw new SignInProblem(await errorText(res));
  window.location.assign(destination);
}

async function errorText(res: Response): Promise<string> {
  const body = (await res.json().catch(() => null)) as { error?: string } | null;
  return body?.error ?? `The server answered HTTP ${res.status}; please try again.`;
}

// Wallet errors carry EIP-1193 codes; say what they mean instead of showing the raw text.
function describe(error: unknown): string {
  if (error instanceof SignInProblem) return error.message;
  const code = findCode(error);
  if (code === 4001) return "You cancelled the request in your wallet. Press the button to try again.";
  if (code === -32002) return "Your wallet is already showing a request: open it to continue.";
  if (code === 4100) return "Your wallet did not allow this site to use the account. Unlock it and try again.";
  if (error instanceof TypeError) return "Could not reach the server. Check your connection and try again.";
  return "Your wallet could not sign the message. Try again, or sign in by e-mail.";
}

function findCode(error: unknown): number | undefined {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    if (typeof e.code === "number") return e.code;
  }
  return undefined;
}

export function WalletSignIn({
  autoStart = false,
  chainId = null,
  destination,
}: {
  autoStart?: boolean;
  chainId?: number | null;
  /** A path on this site, checked by the server page that renders this (readSignInNext). */
  destination: string;
}) {
  const [step, setStep] = useState<Step>("idle");
  const [problem, setProblem] = useState<string | null>(null);
  const started = useRef(false);

  async function run() {
    setProblem(null);
    try {
      await signIn(setStep, chainId, destination);
    } catch (error) {
      setProblem(describe(error));
      setStep("idle");
    }
  }

  // biome-ignore lint/correctness/useExhaustiveDependencies: once, on mount; the ref guards it and the handler is new every render.
  useEffect(() => {
    // Pressing the (not yet loaded) button is what brought this component in: carry on at once.
    if (autoStart && !started.current) {
      started.current = true;
      void run();
    }
  }, [autoStart]);

  return (
    <div>
      <button
        type="button"
        className="button button-primary"
        onClick={() => void run()}
        disabled={step !== "idle"}
        aria-busy={step !== "idle"}
      >
        {step === "idle" ? "Sign in with wallet" : BUSY_LABEL[step]}
      </button>
      <div aria-live="polite">
        {problem && (
          <p role="alert" className={styles.alert}>
            {problem}
          </p>
        )}
      </div>
    </div>
  );
}
