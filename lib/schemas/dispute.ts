import { z } from "zod";
import { formatCount } from "@/lib/format/number";

export const DISPUTE_REASONS = ["not_responding", "incorrect_behaviour", "poor_quality", "other"] as const;
export type DisputeReason = (typeof DISPUTE_REASONS)[number];
export const DISPUTE_DETAILS_MAX = 2000;

// What the renter says before the openDispute transaction. Form values arrive as strings; empty
// details are none.
export const disputeClaimSchema = z.object({
  reason: z.enum(DISPUTE_REASONS, { error: "Choose what went wrong." }),
  details: z
    .string({ error: "The details must be text." })
    .trim()
    .max(DISPUTE_DETAILS_MAX, `Keep the details to ${formatCount(DISPUTE_DETAILS_MAX)} characters or fewer.`)
    .nullish()
    .transform((d) => (d ? d : null)),
});

export const DISPUTE_ANSWER_MAX = 2000;

// The owner's answer, in words, bounded like the renter's details. It is the owner's own text,
// shown to the renter and the arbiter as text only.
export const disputeAnswerSchema = z.object({
  answer: z
    .string({ error: "The answer must be text." })
    .trim()
    .min(1, "Write your answer first.")
    .max(DISPUTE_ANSWER_MAX, `Keep the answer to ${formatCount(DISPUTE_ANSWER_MAX)} characters or fewer.`),
});
