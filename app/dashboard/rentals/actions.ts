"use server";

import type { MoveCommand } from "@/app/_components/chat-move-command";
import { action } from "@/lib/actions/action";
import type { FormState } from "@/lib/actions/form-errors";
import { createChatMove } from "@/lib/channels/create-chat-move";
import { disconnectRentalChat } from "@/lib/channels/disconnect-rental-chat";
import { saveDisputeClaim } from "@/lib/disputes/save-dispute-claim";
import { rateRental } from "@/lib/rentals/rate-rental";

// The rating form's server action (bound to the rental id), on the actions' wrapper
// (lib/actions/action.ts): the account comes from the session cookie, never from the form; it
// spends from the account's action rate limit; the rules, and the check of score and comment
// (lib/schemas/rating.ts), live in lib/rentals/rate-rental.ts, whose ApiErrors are the messages.
export const rateRentalAction = action(
  {
    values: (form) => ({ score: String(form.get("score") ?? ""), comment: String(form.get("comment") ?? "") }),
    what: "save your rating",
    revalidate: (rentalId: string) => [`/dashboard/rentals/${rentalId}`, "/dashboard/rentals"],
  },
  async ({ account, values: { score, comment } }, rentalId: string): Promise<FormState> => {
    await rateRental(account, rentalId, { score: score === "" ? undefined : score, comment });
    return { ok: true, message: "Thank you: your rating is saved and now counts on the agent's marketplace page." };
  },
);

// "Disconnect chat" (bound to the rental id): takes the rental back from the chat account it is
// bound to; only a move command connects a chat again (lib/channels/disconnect-rental-chat.ts).
export const disconnectChatAction = action(
  { what: "disconnect the chat", revalidate: (rentalId: string) => [`/dashboard/rentals/${rentalId}`] },
  async ({ account }, rentalId: string): Promise<FormState> => {
    await disconnectRentalChat(account, rentalId);
    return {
      ok: true,
      message: 'Disconnected. To connect a chat again, press "Move to another chat account" and send the command it gives you.',
    };
  },
);

/** A move command in the answer only: it is stored as a hash and works once. */
export type MoveChatState = FormState | { ok: true; message: string; move: MoveCommand };

// "Move to another chat account" (bound to the rental id): the renter's consent, from their
// session, to move the rental's chat (lib/channels/create-chat-move.ts); the command it answers
// moves it to the chat account that sends it.
export const moveChatAction = action({ what: "make a move command" }, async ({ account }, rentalId: string): Promise<MoveChatState> => {
  const { platform, token, expiresAt } = await createChatMove(rentalId, { account });
  return {
    ok: true,
    message: "Send this command from the chat account that should have the rental.",
    move: { platform, token, expiresAt: expiresAt.toISOString() },
  };
});

// "Continue" on the dispute form (bound to the rental id): the reason and details are saved off
// chain first (lib/disputes/save-dispute-claim.ts); the form then opens the wallet stepper.
export const saveDisputeClaimAction = action(
  {
    values: (form) => ({ reason: String(form.get("reason") ?? ""), details: String(form.get("details") ?? "") }),
    what: "save the reason of your dispute",
    revalidate: (rentalId: string) => [`/dashboard/rentals/${rentalId}`],
  },
  async ({ account, values: { reason, details } }, rentalId: string): Promise<FormState> => {
    await saveDisputeClaim(account, rentalId, { reason, details });
    return { ok: true, message: "Reason saved. Now open the dispute on chain with your wallet." };
  },
);
