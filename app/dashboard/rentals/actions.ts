"use server";

import { revalidatePath } from "next/cache";
import { requireSignedInAccount } from "@/lib/auth/signed-in-account";
import { ApiError } from "@/lib/http/api-error";
import { limitAction } from "@/lib/ratelimit/limit-action";
import { rateRental } from "@/lib/rentals/rate-rental";

export type RatingFormState = { ok: boolean; message: string | null; values?: { score: string; comment: string } };

// The rating form's server action (bound to the rental id). The account comes from the session
// cookie, never from the form; it spends from the account's action rate limit (limitAction); the
// rules live in lib/rentals/rate-rental.ts.
export async function rateRentalAction(rentalId: string, _previous: RatingFormState, form: FormData): Promise<RatingFormState> {
  const account = await requireSignedInAccount();
  const score = String(form.get("score") ?? "");
  const comment = String(form.get("comment") ?? "");
  const limited = await limitAction(account.id);
  if (limited) return { ok: false, message: limited.message, values: { score, comment } };
  try {
    await rateRental(account, rentalId, { score: score === "" ? undefined : score, comment });
  } catch (error) {
    if (error instanceof ApiError) return { ok: false, message: error.message, values: { score, comment } };
    console.error("[dashboard] rating failed", error);
    return { ok: false, message: "Your rating could not be saved because of a problem on our side. Please try again.", values: { score, comment } };
  }
  revalidatePath(`/dashboard/rentals/${rentalId}`);
  revalidatePath("/dashboard/rentals");
  return { ok: true, message: "Thank you: your rating is saved and now counts on the agent's marketplace page." };
}
