import type { DisputeReason } from "@/lib/schemas/dispute";

/** A dispute's reason as the renter picked it, in the words of the form. */
export const DISPUTE_REASON_LABEL: Record<DisputeReason, string> = {
  not_responding: "The agent is not responding",
  incorrect_behaviour: "The agent behaves incorrectly",
  poor_quality: "The answers are of poor quality",
  other: "Something else",
};

/** The reason of a stored dispute; null when it was opened on chain without this site. */
export function disputeReasonLabel(reason: string | null): string {
  return (reason && DISPUTE_REASON_LABEL[reason as DisputeReason]) || "No reason given (opened directly on chain)";
}
