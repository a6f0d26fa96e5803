"use client";
// The webhook's signing secret (Standard Webhooks): shown once, when it is created (the first
// connect, or a rotation), with a copy button; never readable again.
import Link from "next/link";
import { useActionState } from "react";
import { CopyButton } from "@/app/_components/copy-button";
import type { FormState } from "@/lib/actions/form-errors";
import { FormMessage } from "../../_components/form-message";
import forms from "../../_components/forms.module.css";

export function SigningSecretShown({ secret }: { secret: string }) {
  return (
    <div className="field">
      <p>
        <strong>Your webhook signing secret</strong>, shown this once: every call to your webhook carries a signature made with it (
        <Link href="/docs/webhooks#signatures">how to verify it</Link>).
      </p>
      <div className={forms.inputRow}>
        <code style={{ overflowWrap: "anywhere" }}>{secret}</code>
        <CopyButton value={secret} label="Copy signing secret" />
      </div>
    </div>
  );
}

type Action = (prev: (FormState & { signingSecret?: string }) | null, form: FormData) => Promise<FormState & { signingSecret?: string }>;

export function RotateSigningSecretForm({ action }: { action: Action }) {
  const [state, formAction, pending] = useActionState(action, null);
  return (
    <form action={formAction} className={forms.form}>
      <p className="hint">
        Calls to your webhook are signed (the <code>webhook-signature</code> header) with a secret shown only when it is created. Lost it,
        or leaked it? Rotate it: the old one stops verifying at once.
      </p>
      <div>
        <button type="submit" className="button" disabled={pending}>
          {pending ? "Rotating…" : "Rotate signing secret"}
        </button>
      </div>
      <FormMessage state={state} />
      {state?.ok && state.signingSecret && <SigningSecretShown secret={state.signingSecret} />}
    </form>
  );
}
