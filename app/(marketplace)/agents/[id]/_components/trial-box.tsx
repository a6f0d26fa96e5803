// The agent page's free trial (docs/trials.md): the offer ("Try N messages free"), and for a
// signed-in renter either the trial's code and messages left (one per account per agent, ever) or
// the button that starts it; a visitor is asked to sign in first.
import Link from "next/link";
import type { SignedInAccount } from "@/lib/auth/current-account";
import { signInPath } from "@/lib/auth/sign-in-path";
import { formatDate } from "@/lib/format/date-time";
import { plural } from "@/lib/format/plural";
import type { Trial, TrialRefusalReason } from "@/lib/trials/start-trial";
import { TRIALS_PER_ACCOUNT_PER_DAY, TRIALS_PER_CLIENT_PER_DAY } from "@/lib/trials/start-trial";
import { startTrialAction } from "../actions";

export type TrialNotice = TrialRefusalReason | "busy";

// What the page says for each refusal (the URL carries only the code).
const REFUSED: Record<TrialNotice, string> = {
  "no-agent": "This agent no longer exists.",
  "no-offer": "This agent no longer offers a free trial.",
  unavailable: "This agent is not available right now, so its free trial cannot start; try again later.",
  "account-day-limit": `You have started ${TRIALS_PER_ACCOUNT_PER_DAY} free trials in the last 24 hours, the most one account may; try again tomorrow.`,
  "client-day-limit": `${TRIALS_PER_CLIENT_PER_DAY} free trials were started from your network address in the last 24 hours, the most one address may; try again tomorrow.`,
  busy: "Too many changes in a short time (at most 30 a minute); try again in a minute.",
};

export function readTrialNotice(value: unknown): TrialNotice | null {
  return typeof value === "string" && Object.hasOwn(REFUSED, value) ? (value as TrialNotice) : null;
}

export function TrialBox(props: {
  agent: { id: string; name: string; trialMessages: number | null };
  account: SignedInAccount | null;
  trial: Trial | null;
  notice: TrialNotice | null;
  rentable: boolean;
}) {
  const { agent, account, trial, notice } = props;
  // A trial already given is shown even when the offer has ended since (its code says so on use).
  if (agent.trialMessages === null && !trial) return null;
  const page = `/agents/${agent.id}`;
  return (
    <section id="trial" aria-labelledby="trial-heading" data-testid="trial-box">
      <h3 id="trial-heading">{agent.trialMessages !== null ? `Try ${plural(agent.trialMessages, "message")} free` : "Your free trial"}</h3>
      {trial ? (
        <div data-testid="trial-code">
          <p>
            Your trial code: <code>{trial.id.slice(0, 8)}</code> —{" "}
            <Link href={`/dashboard/rentals/${trial.id}#playground`}>try it in the playground</Link>
          </p>
          <p className="hint">
            {trial.trialMessagesLeft > 0
              ? `${plural(trial.trialMessagesLeft, "free message")} left, until ${formatDate(trial.endsAt)}.`
              : "No free messages left: rent the agent to keep talking."}{" "}
            Use it like a rental code: <code>POST /api/v1/chat</code> with <code>X-API-Key: {trial.id.slice(0, 8)}</code>, or{" "}
            <code>/start {trial.id.slice(0, 8)}</code> in a chat bot. One trial per account per agent.
          </p>
        </div>
      ) : account ? (
        <form action={startTrialAction.bind(null, agent.id)}>
          <p className="hint">
            The owner pays for these messages: no wallet, no payment. One trial per account per agent; at most {TRIALS_PER_ACCOUNT_PER_DAY}{" "}
            a day.
          </p>
          {props.rentable ? (
            <button type="submit" className="button">
              Start free trial
            </button>
          ) : (
            <p className="hint">The trial can start once the agent is available again.</p>
          )}
        </form>
      ) : (
        <p className="hint">
          <Link href={signInPath({ next: page })}>Sign in</Link> with your wallet or e-mail to get a trial code: the owner pays for these
          messages, you pay nothing.
        </p>
      )}
      {notice && (
        <p className="notice" role="alert" data-testid="trial-notice">
          {REFUSED[notice]}
        </p>
      )}
    </section>
  );
}
