"use client";
import { useActionState } from "react";
import type { FormState } from "@/lib/actions/form-errors";
import { FormMessage } from "../../_components/form-message";

type Action = (prev: FormState | null, form: FormData) => Promise<FormState>;

// The rental's chat binding and a way out of it: for a lost phone or an account the renter no
// longer uses. Works without JavaScript; the answer is announced.
export function DisconnectChatForm({ action, chat }: { action: Action; chat: string }) {
  const [state, formAction, pending] = useActionState(action, null);
  return (
    <>
      <span data-testid="bound-chat">{chat}</span>{" "}
      {!state?.ok && (
        <form action={formAction} style={{ display: "inline" }}>
          <button type="submit" className="button" disabled={pending} aria-busy={pending}>
            Disconnect chat
          </button>
        </form>
      )}
      <FormMessage state={state} />
    </>
  );
}
