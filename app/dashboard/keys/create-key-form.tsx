"use client";
import { useActionState, useId } from "react";
import { CopyButton } from "@/app/_components/copy-button";
import { FieldError, FormMessage } from "../_components/form-message";
import forms from "../_components/forms.module.css";
import type { CreateKeyState } from "./actions";

type Action = (prev: CreateKeyState | null, form: FormData) => Promise<CreateKeyState>;

// A new key is shown once, here, with a copy button: only its hash is stored.
export function CreateKeyForm({ action }: { action: Action }) {
  const [state, formAction, pending] = useActionState(action, null);
  const id = useId();
  const error = state && !state.ok ? state.fieldErrors.label : undefined;
  return (
    <form action={formAction} className={forms.form}>
      <div className="field">
        <label htmlFor={`${id}-label`}>Label (optional)</label>
        <div className={forms.inputRow}>
          <input
            id={`${id}-label`}
            name="label"
            type="text"
            maxLength={60}
            autoComplete="off"
            placeholder="e.g. deploy script"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-label-error` : undefined}
          />
          <button type="submit" className="button button-primary" disabled={pending}>
            Create API key
          </button>
        </div>
        <FieldError id={`${id}-label-error`} message={error} />
      </div>
      <FormMessage state={state} />
      {state && "apiKey" in state && (
        <div className={forms.secret}>
          <p style={{ margin: 0 }}>
            <strong>Your new API key</strong> (shown only now; store it in your secrets manager):
          </p>
          {/* biome-ignore lint/a11y/useAriaPropsSupportedByRole: names the one-time key for screen readers (and the browser test) where it is shown. */}
          <code id={`${id}-key`} aria-label="New API key">
            {state.apiKey}
          </code>
          <p style={{ margin: 0 }}>
            <CopyButton value={state.apiKey} label="Copy API key" />
          </p>
          <p className="hint" style={{ margin: 0 }}>
            Send it as <code>Authorization: Bearer rck_…</code> or <code>X-API-Key</code> to <code>/api/public/*</code>.
          </p>
        </div>
      )}
    </form>
  );
}
