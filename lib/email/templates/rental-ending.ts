import "server-only";
import { plainEmail } from "@/lib/email/templates/plain-email";
import { formatDateTime } from "@/lib/format/date-time";
import { formatRoughSpan } from "@/lib/format/rough-span";
import { rentalExtendUrl } from "@/lib/rentals/rental-extend-url";

export type RentalEnding = { rental: { id: string; endsAt: Date }; agent: { name: string } };

// Sent to the renter once per end of a rental, shortly before it (lib/rentals/remind-ending-rentals.ts).
export function rentalEndingEmail({ rental, agent }: RentalEnding, now: Date) {
  const left = formatRoughSpan(rental.endsAt.getTime() - now.getTime());
  return plainEmail(
    `Your rental of "${agent.name}" ends in ${left}`,
    [
      `Your rental of "${agent.name}" (code ${rental.id.slice(0, 8)}) ends at ${formatDateTime(rental.endsAt)}, in ${left}.`,
      "To keep the agent, extend the rental before then: the code, your chat and the conversation stay the same.",
      "If you do nothing, the rental ends then and the payment is settled as usual.",
    ],
    { url: rentalExtendUrl(rental.id), label: "Extend the rental" },
  );
}
