"use client";
import { useActionState } from "react";
import type { FormState } from "@/lib/actions/form-errors";
import { FormMessage } from "../_components/form-message";
import forms from "../_components/forms.module.css";

type Action = (prev: FormState | null, form: FormData) => Promise<FormState>;

// The key's state cell: while the key is active, "Revoke…" opens a confirmation (a native
// disclosure: it works without JavaScript and by keyboard), since scripts using the key stop at
// once; then when it was revoked. The component stays mounted across the change, so the answer
// is still announced.
export function RevokeKeyForm({
  action,
  keyId,
  prefix,
  revoked,
}: {
  action: Action;
  keyId: string;
  prefix: string;
  revoked: string | null;
}) {
  const [state, formAction, pending] = useActionState(action, null);
  return (
    <>
      {revoked ? (
        <span className="muted">Revoked {revoked}</span>
      ) : (
        <details className={forms.confirm}>
          <summary className="button">
            Revoke…<span className="visually-hidden"> {prefix}</span>
          </summary>
          <form action={formAction}>
            <p className="hint">Scripts using this key stop working at once. This cannot be undone.</p>
            <input type="hidden" name="keyId" value={keyId} />
            <button type="submit" className={`button ${forms.danger}`} disabled={pending} aria-label={`Revoke key ${prefix}`}>
              Yes, revoke
            </button>
          </form>
        </details>
      )}
      <FormMessage state={state} />
    </>
  );
}
