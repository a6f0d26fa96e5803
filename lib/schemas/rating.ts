import { z } from "zod";
import { formatCount } from "@/lib/format/number";

export const RATING_COMMENT_MAX = 1000;

// A renter's rating of a rental. Form values arrive as strings: the score is coerced, the
// comment trimmed (empty = no comment).
export const ratingInputSchema = z.object({
  score: z.coerce
    .number({ error: "Choose a score from 1 to 5 stars." })
    .int("Choose a whole number of stars, from 1 to 5.")
    .min(1, "Choose a score from 1 to 5 stars.")
    .max(5, "Choose a score from 1 to 5 stars."),
  comment: z
    .string({ error: "The comment must be text." })
    .trim()
    .max(RATING_COMMENT_MAX, `Keep the comment to ${formatCount(RATING_COMMENT_MAX)} characters or fewer.`)
    .nullish()
    .transform((c) => (c ? c : null)),
});

export type RatingInput = z.input<typeof ratingInputSchema>;
