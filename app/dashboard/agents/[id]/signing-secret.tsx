"use client";
// The webhook's signing secret (Standard Webhooks), with a copy button: shown with every Test
// connection until one passes (that one included), and once by each rotation; never readable
// otherwise (docs/decisions.md).
import Link from "next/link";
import { useActionState } from "react";
import { CopyButton } from "@/app/_components/copy-button";
import type { FormState } from "@/lib/actions/form-errors";
import { FormMessage } from "../../_components/form-message";
import forms from "../../_components/forms.module.css";

// When it is shown again: with the next Test connection while none has passed; after the first
// that passes, never; after a rotation, only if no test has passed yet.
const SHOWN_AGAIN = {
  "until-a-test-passes": "It is shown again with each Test connection until one passes.",
  "last-time": "This is the last time it is shown: copy it now. Only Rotate signing secret shows a (new) one from now on.",
  rotated: "Copy it now: once a Test connection has passed, it is not shown again.",
} as const;

export function SigningSecretShown({ secret, when }: { secret: string; when: keyof typeof SHOWN_AGAIN }) {
  return (
    <div className="field">
      <p>
        <strong>Your webhook signing secret</strong>: every call to your webhook carries a signature made with it (
        <Link href="/docs/webhooks#signatures">how to verify it</Link>). {SHOWN_AGAIN[when]}
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
        Calls to your webhook are signed (the <code>webhook-signature</code> header) with a secret shown with each Test connection until one
        passes, and then no more. Lost it, or leaked it? Rotate it: the old one stops verifying at once.
      </p>
      <div>
        <button type="submit" className="button" disabled={pending}>
          {pending ? "Rotating…" : "Rotate signing secret"}
        </button>
      </div>
      <FormMessage state={state} />
      {state?.ok && state.signingSecret && <SigningSecretShown secret={state.signingSecret} when="rotated" />}
    </form>
  );
}
