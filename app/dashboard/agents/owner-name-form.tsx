"use client";
import { useActionState, useId } from "react";
import type { FormState } from "@/lib/actions/form-errors";
import { FieldError, FormMessage } from "../_components/form-message";
import forms from "../_components/forms.module.css";

type Action = (prev: FormState | null, form: FormData) => Promise<FormState>;

// The name renters see beside this account's listings; the e-mail and wallet are never shown.
export function OwnerNameForm({ action, current }: { action: Action; current: string | null }) {
  const [state, formAction, pending] = useActionState(action, null);
  const id = useId();
  const error = state && !state.ok ? state.fieldErrors.displayName : undefined;
  return (
    <form action={formAction} className={forms.form}>
      <div className="field">
        <label htmlFor={`${id}-name`}>Your name on the marketplace</label>
        <div className={forms.inputRow}>
          <input
            id={`${id}-name`}
            name="displayName"
            type="text"
            maxLength={60}
            autoComplete="organization"
            defaultValue={current ?? ""}
            placeholder="e.g. Ada Labs"
            aria-invalid={error ? true : undefined}
            aria-describedby={`${id}-name-hint${error ? ` ${id}-name-error` : ""}`}
          />
          <button type="submit" className="button" disabled={pending}>
            Save name
          </button>
        </div>
        <p id={`${id}-name-hint`} className="hint">
          Shown as &ldquo;by …&rdquo; on your listings. Leave it blank to show &ldquo;by an independent owner&rdquo;; your e-mail and wallet
          are never shown.
        </p>
        <FieldError id={`${id}-name-error`} message={error} />
      </div>
      <FormMessage state={state} />
    </form>
  );
}
