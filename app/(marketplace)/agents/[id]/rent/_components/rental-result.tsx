"use client";
// After confirmation: the rental code (large, copyable), the time left, the way to the rental's
// page and its playground, how to start, and for a chat channel the way to move the rental to
// another chat account.
import Link from "next/link";
import { useEffect, useRef, useState } from "react";
import { channelName } from "@/lib/channels/channel-name";
import { activationSteps, type ChannelLinks, type CheckoutChannel } from "@/lib/checkout/activation";
import type { ClaimedRental } from "@/lib/checkout/checkout-api";
import { rentalPageLinks } from "@/lib/checkout/rental-page-links";
import { formatDateTime } from "@/lib/format/date-time";
import { formatTimeLeft } from "@/lib/format/time-left";
import { ChatMovePanel } from "./chat-move-panel";
import styles from "./checkout.module.css";

function useNow(intervalMs = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}

function selectText(element: HTMLElement | null) {
  if (!element) return;
  const selection = window.getSelection();
  selection?.removeAllRanges();
  selection?.selectAllChildren(element);
}

function CopyButton({ target, label, text }: { target: React.RefObject<HTMLElement | null>; label: string; text: string }) {
  const [state, setState] = useState<"idle" | "copied" | "selected">("idle");
  async function copy() {
    try {
      if (!navigator.clipboard) throw new Error("no clipboard");
      await navigator.clipboard.writeText(text);
      setState("copied");
    } catch {
      // No clipboard permission (or an insecure page): select the text for Ctrl+C / ⌘C.
      selectText(target.current);
      setState("selected");
    }
  }
  return (
    <>
      <button type="button" className="button" onClick={() => void copy()}>
        {label}
      </button>
      <span role="status" className="hint">
        {state === "copied" ? " Copied." : state === "selected" ? " Selected: press Ctrl+C (⌘C on a Mac) to copy." : ""}
      </span>
    </>
  );
}

type RentalResultProps = {
  result: ClaimedRental;
  channel: CheckoutChannel;
  agentName: string;
  links: ChannelLinks;
  /** Whether this browser was signed in when the page loaded: if not, the rental's page is reached through the sign-in. */
  signedIn: boolean;
};

export function RentalResult({ result, channel, agentName, links, signedIn }: RentalResultProps) {
  const heading = useRef<HTMLHeadingElement>(null);
  const codeRef = useRef<HTMLElement>(null);
  const now = useNow();
  const [origin, setOrigin] = useState("");
  useEffect(() => {
    setOrigin(window.location.origin);
    heading.current?.focus();
  }, []);
  const endsAt = new Date(result.ends_at);
  const remaining = endsAt.getTime() - now;
  const steps = activationSteps(channel, result.code, origin || "https://<this-site>", links);
  const rentalPage = rentalPageLinks(result.id, signedIn);

  return (
    <section className={styles.checkout} aria-labelledby="result-heading" data-testid="rental-result">
      <h2 id="result-heading" ref={heading} tabIndex={-1}>
        Your rental of {agentName} is active
      </h2>
      <p>Your rental code — keep it: it is the key to talk to the agent.</p>
      <p className={styles.codeRow}>
        <code ref={codeRef} className={styles.code} data-testid="rental-code">
          {result.code}
        </code>{" "}
        <CopyButton target={codeRef} label="Copy code" text={result.code} />
      </p>
      <dl className={styles.facts}>
        <div>
          <dt>Time remaining</dt>
          <dd data-testid="time-remaining">
            {/* Updated every second; announced only on request (not live) to avoid noise. */}
            {formatTimeLeft(remaining)}
          </dd>
        </div>
        <div>
          <dt>Ends</dt>
          <dd>
            <time dateTime={result.ends_at}>{formatDateTime(endsAt)}</time>
          </dd>
        </div>
        <div>
          <dt>Payment</dt>
          <dd>
            <code className={styles.hash}>{result.txHash}</code>
          </dd>
        </div>
      </dl>

      <p className={styles.codeRow}>
        <Link className="button button-primary" href={rentalPage.playground} prefetch={false} data-testid="rental-playground-link">
          Open the playground
        </Link>{" "}
        <Link className="button" href={rentalPage.page} prefetch={false} data-testid="rental-page-link">
          Open your rental&apos;s page
        </Link>{" "}
        <Link className="button" href={rentalPage.extend} prefetch={false} data-testid="rental-extend-link">
          Extend
        </Link>
      </p>
      <p className="hint">
        Your rental&apos;s page, under My rentals, keeps the code and shows the time left, your usage and a playground to chat with the
        agent in the browser
        {signedIn ? "." : ". Sign in there with the wallet you paid with: the rental belongs to that wallet's account."}
      </p>

      <h3>How to start ({channelName(channel)})</h3>
      <ol className={styles.activation}>
        {steps.map((step) => (
          <li key={step.text}>
            <p>{step.text}</p>
            {step.link && (
              <p>
                <a
                  className="button button-primary"
                  href={step.link.href}
                  target="_blank"
                  rel="noopener noreferrer"
                  data-testid="channel-link"
                >
                  {step.link.label}
                </a>
              </p>
            )}
            {step.command && <CommandBlock command={step.command} />}
          </li>
        ))}
      </ol>
      {channel !== "API" && (
        <>
          <h3>Another chat account</h3>
          <ChatMovePanel rentalId={result.id} claimSecret={result.claimSecret} links={links} />
        </>
      )}
      <p>
        <a href="/">Back to the marketplace</a>
      </p>
    </section>
  );
}

function CommandBlock({ command }: { command: string }) {
  const ref = useRef<HTMLElement>(null);
  return (
    <div className={styles.command}>
      <pre>
        <code ref={ref} data-testid="activation-command">
          {command}
        </code>
      </pre>
      <CopyButton target={ref} label={command.startsWith("curl") ? "Copy command" : "Copy message"} text={command} />
    </div>
  );
}
