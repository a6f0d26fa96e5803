import { formatDateTime } from "@/lib/format/date-time";

type RentalState = { status: string; startsAt: Date; endsAt: Date };

/**
 * Why a rental cannot be used on a chat now, in a sentence for the chat; null when it can. The
 * same rule as the API's (lib/rentals/assert-rental-usable.ts): active, and inside its window.
 */
export function rentalUnusableReason(rental: RentalState, now: Date): string | null {
  switch (rental.status) {
    case "pending":
      return "This rental's payment has not been confirmed yet. Try again in a minute.";
    case "cancelled":
      return "This rental was cancelled (its payment was refunded), so it cannot be used.";
    case "disputed":
      return "This rental is disputed: its payment is frozen in the escrow and the agent cannot be used until the dispute is decided.";
    case "completed":
      return "This rental has ended. Rent the agent again on the marketplace to keep talking to it.";
  }
  if (now < rental.startsAt) return `This rental has not started yet: it starts ${formatDateTime(rental.startsAt)}.`;
  if (now >= rental.endsAt)
    return `This rental ended ${formatDateTime(rental.endsAt)}. Rent the agent again on the marketplace to keep talking to it.`;
  return null;
}
