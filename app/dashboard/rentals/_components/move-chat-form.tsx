"use client";
import { useActionState } from "react";
import { ChatMoveCommand } from "@/app/_components/chat-move-command";
import type { ChannelLinks } from "@/lib/checkout/activation";
import { FormMessage } from "../../_components/form-message";
import type { MoveChatState } from "../actions";

type Action = (prev: MoveChatState | null, form: FormData) => Promise<MoveChatState>;

// "Move to another chat account": the renter's consent, from this signed-in page, to move the
// rental's chat (its code alone never can). The command is shown once, here; pressing again makes
// a new one in its place. Works without JavaScript.
export function MoveChatForm({ action, links }: { action: Action; links: ChannelLinks }) {
  const [state, formAction, pending] = useActionState(action, null);
  return (
    <>
      <form action={formAction} style={{ marginTop: "0.5rem" }}>
        <button type="submit" className="button" disabled={pending} aria-busy={pending}>
          Move to another chat account
        </button>
      </form>
      <FormMessage state={state} />
      {state && "move" in state && <ChatMoveCommand move={state.move} links={links} />}
    </>
  );
}
