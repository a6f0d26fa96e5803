"use client";
import { useActionState, useId } from "react";
import type { FormState } from "@/lib/actions/form-errors";
import { FormMessage } from "../../_components/form-message";
import forms from "../../_components/forms.module.css";
import styles from "../../dashboard.module.css";

type Action = (prev: FormState | null, form: FormData) => Promise<FormState>;

// Deleting asks for a tick first (works without JavaScript). A listing that is rented now or has
// rental history is kept, and the answer says why.
export function DeleteForm({ action, name }: { action: Action; name: string }) {
  const [state, formAction, pending] = useActionState(action, null);
  const id = useId();
  return (
    <form action={formAction} className={forms.form}>
      <div className={forms.checks}>
        <label htmlFor={`${id}-confirm`}>
          <input id={`${id}-confirm`} type="checkbox" name="confirm" value="yes" required />
          Yes, delete this listing
        </label>
      </div>
      <div className={styles.actions}>
        <button type="submit" className={`button ${forms.danger}`} disabled={pending} aria-label={`Delete listing ${name}`}>
          Delete listing
        </button>
      </div>
      <FormMessage state={state} />
    </form>
  );
}
