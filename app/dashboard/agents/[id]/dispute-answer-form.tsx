"use client";

import { useActionState, useId } from "react";
import type { FormState } from "@/lib/actions/form-errors";
import { formatDateTime } from "@/lib/format/date-time";
import { formatCount } from "@/lib/format/number";
import { DISPUTE_ANSWER_MAX } from "@/lib/schemas/dispute";
import { FieldError, FormMessage } from "../../_components/form-message";
import forms from "../../_components/forms.module.css";

type Props = {
  /** Saves the answer (server action bound to the listing and the rental's reference). */
  action: (state: FormState | null, form: FormData) => Promise<FormState>;
  /** The answer saved so far, if any. */
  saved: { answer: string; answeredAt: Date } | null;
};

/** The owner's answer to an open dispute, in words: one per dispute, changeable until it is decided. */
export function DisputeAnswerForm({ action, saved }: Props) {
  const [state, formAction, pending] = useActionState(action, null);
  const id = useId();
  const error = state && !state.ok ? state.fieldErrors.answer : undefined;
  const value = state?.values?.answer ?? saved?.answer;
  return (
    <form action={formAction} className={forms.form}>
      <div className="field">
        <label htmlFor={`${id}-answer`}>Your answer</label>
        <textarea
          id={`${id}-answer`}
          name="answer"
          rows={4}
          required
          maxLength={DISPUTE_ANSWER_MAX}
          defaultValue={typeof value === "string" ? value : undefined}
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-hint${error ? ` ${id}-error` : ""}`}
        />
        <p id={`${id}-hint`} className="hint">
          Up to {formatCount(DISPUTE_ANSWER_MAX)} characters: your side, in your words. The renter and the arbiter read it beside the
          renter&apos;s reason; the renter is told when you first answer. You can change it until the dispute is decided
          {saved ? ` (last saved ${formatDateTime(saved.answeredAt)})` : ""}.
        </p>
        <FieldError id={`${id}-error`} message={error} />
      </div>
      <FormMessage state={state} />
      <div>
        <button type="submit" className="button" disabled={pending} aria-busy={pending}>
          {pending ? "Saving…" : saved ? "Save the changed answer" : "Send the answer"}
        </button>
      </div>
    </form>
  );
}
