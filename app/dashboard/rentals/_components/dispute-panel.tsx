"use client";

import dynamic from "next/dynamic";
import { useActionState, useId, useState } from "react";
import type { FormState } from "@/lib/actions/form-errors";
import { DISPUTE_REASON_LABEL } from "@/lib/format/dispute-reason";
import { formatCount } from "@/lib/format/number";
import { DISPUTE_DETAILS_MAX, DISPUTE_REASONS } from "@/lib/schemas/dispute";
import styles from "../renter.module.css";
import type { DisputeStepperProps } from "./dispute-stepper";

// wagmi, viem and the wallet code are a separate chunk, fetched only when the renter has said why
// and continues to the wallet, so the rental page stays light for everyone else.
const DisputeStepper = dynamic(() => import("./dispute-stepper").then((m) => m.DisputeStepper), {
  ssr: false,
  loading: () => (
    <p role="status" className="hint">
      Loading the wallet connection…
    </p>
  ),
});

type Props = Omit<DisputeStepperProps, "autoStart"> & {
  /** Saves the reason and details (server action bound to the rental). */
  action: (state: FormState | null, form: FormData) => Promise<FormState>;
  /** What the renter said before, if they stopped before the transaction. */
  saved: { reason: string | null; details: string | null } | null;
};

/** Opening a dispute: say what went wrong (saved off chain), then the wallet stepper sends openDispute. */
export function DisputePanel({ action, saved, ...stepper }: Props) {
  const [started, setStarted] = useState(false);
  const [state, formAction, pending] = useActionState(action, null);
  const id = useId();
  if (state?.ok) return <DisputeStepper {...stepper} autoStart />;
  if (!started) {
    return (
      <button type="button" className="button" onClick={() => setStarted(true)}>
        Open a dispute…
      </button>
    );
  }
  const reason = state?.values?.reason ?? saved?.reason ?? undefined;
  const details = state?.values?.details ?? saved?.details ?? undefined;
  return (
    <form action={formAction} className={styles.ratingForm}>
      <fieldset className={styles.reasons}>
        <legend className={styles.label}>What went wrong?</legend>
        {DISPUTE_REASONS.map((r) => (
          <label key={r}>
            <input type="radio" name="reason" value={r} required defaultChecked={reason === r} /> {DISPUTE_REASON_LABEL[r]}
          </label>
        ))}
      </fieldset>
      <label htmlFor={`${id}-details`} className={styles.label}>
        Details <span className="hint">(optional)</span>
      </label>
      <textarea
        id={`${id}-details`}
        name="details"
        rows={4}
        maxLength={DISPUTE_DETAILS_MAX}
        className={styles.textarea}
        defaultValue={details}
        aria-describedby={`${id}-hint`}
      />
      <p id={`${id}-hint`} className="hint">
        Up to {formatCount(DISPUTE_DETAILS_MAX)} characters: what you asked and when, what happened. The owner and the arbiter read this
        beside the service&apos;s measurements (health checks, the times and outcomes of your messages; never their text).
      </p>
      <div aria-live="polite">{state && !state.ok && <p className={styles.error}>{state.message}</p>}</div>
      <button type="submit" className="button button-primary" disabled={pending} aria-busy={pending}>
        {pending ? "Saving…" : "Continue to the wallet"}
      </button>
    </form>
  );
}
