import "server-only";
import { plainEmail } from "@/lib/email/templates/plain-email";
import { appUrl } from "@/lib/env";
import { formatDateTime } from "@/lib/format/date-time";

export type RentalEndedEmail = { rental: { id: string; endsAt: Date }; agent: { name: string } };

// Sent once to the renter when a rental has ended and its escrow was released to the owner.
export function rentalEndedEmail({ rental, agent }: RentalEndedEmail) {
  return plainEmail(
    `Your rental of "${agent.name}" has ended`,
    [
      `Your rental of "${agent.name}" (code ${rental.id.slice(0, 8)}) ended at ${formatDateTime(rental.endsAt)}.`,
      "The payment held in escrow has been released to the agent's owner. Rent the agent again any time from the marketplace, and rate it from your dashboard.",
    ],
    { url: `${appUrl()}/dashboard/rentals`, label: "Open your rentals" },
  );
}
