"use client";
// "Send a test message": a message to the listing's webhook, answered with exactly what a renter
// would get from POST /v1/chat (status and JSON body), shown as raw JSON.
import { useActionState, useId } from "react";
import type { FormState } from "@/lib/actions/form-errors";
import type { TestMessageResult } from "@/lib/agents/send-test-message";
import { FieldError, FormMessage } from "../../../_components/form-message";
import forms from "../../../_components/forms.module.css";

type State = FormState & { result?: TestMessageResult };
type Action = (prev: State | null, form: FormData) => Promise<State>;

export function TestMessageForm({ action }: { action: Action }) {
  const [state, formAction, pending] = useActionState(action, null);
  const id = useId();
  const error = state && !state.ok ? state.fieldErrors.message : undefined;
  return (
    <form action={formAction} className={forms.form}>
      <div className="field">
        <label htmlFor={`${id}-message`}>Test message</label>
        <textarea
          id={`${id}-message`}
          name="message"
          rows={3}
          maxLength={10_000}
          required
          defaultValue={typeof state?.values?.message === "string" ? state.values.message : "Hello! This is a test from my dashboard."}
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-hint${error ? ` ${id}-error` : ""}`}
        />
        <p id={`${id}-hint`} className="hint">
          Sent to your webhook like a renter&apos;s message (signed, with a placeholder rental), and not counted in your statistics.
        </p>
        <FieldError id={`${id}-error`} message={error} />
      </div>
      <div>
        <button type="submit" className="button button-primary" disabled={pending} aria-busy={pending}>
          {pending ? "Waiting for your webhook…" : "Send a test message"}
        </button>
      </div>
      <FormMessage state={state} />
      {state?.ok && state.result && (
        <figure style={{ margin: 0 }}>
          <figcaption className="hint">What a renter would get</figcaption>
          <pre style={{ overflowX: "auto", whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}>
            {`HTTP ${state.result.status}\n${JSON.stringify(state.result.body, null, 2)}`}
          </pre>
        </figure>
      )}
    </form>
  );
}
