"use server";
// The owner's answer to a dispute on one of their listings, on the actions' wrapper
// (lib/actions/action.ts): bound to the listing and the rental's reference, never its id, whose
// first characters are the renter's code (lib/disputes/save-dispute-answer.ts).
import { action } from "@/lib/actions/action";
import type { FormState } from "@/lib/actions/form-errors";
import { saveDisputeAnswer } from "@/lib/disputes/save-dispute-answer";
import { disputeAnswerSchema } from "@/lib/schemas/dispute";

export const saveDisputeAnswerAction = action(
  {
    input: disputeAnswerSchema,
    values: (form) => ({ answer: String(form.get("answer") ?? "") }),
    what: "save your answer",
    // The listing's page; the renter's page and the console are read afresh on each visit.
    revalidate: (agentId: string, _rentalRef: string) => [`/dashboard/agents/${agentId}`],
  },
  async ({ account, input }, agentId: string, rentalRef: string): Promise<FormState> => {
    const { first } = await saveDisputeAnswer(account.id, { agentId, rentalRef }, input.answer);
    return {
      ok: true,
      message: first
        ? "Answer sent. The renter is told, and the arbiter reads it beside the renter's reason."
        : "Answer changed. The renter and the arbiter now read the new words.",
    };
  },
);
