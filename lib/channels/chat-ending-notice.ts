import "server-only";
import type { RentalEnding } from "@/lib/email/templates/rental-ending";
import { formatDateTime } from "@/lib/format/date-time";
import { formatRoughSpan } from "@/lib/format/rough-span";
import { rentalExtendUrl } from "@/lib/rentals/rental-extend-url";

/** What a chat bound to a rental is told shortly before the rental ends (lib/rentals/remind-ending-rentals.ts). */
export function chatEndingNotice({ rental, agent }: RentalEnding, now: Date): string {
  const left = formatRoughSpan(rental.endsAt.getTime() - now.getTime());
  return (
    `Your rental of ${agent.name} ends in ${left} (${formatDateTime(rental.endsAt)}), and this chat is disconnected then. ` +
    `To keep this chat and the conversation, extend the rental before it ends: ${rentalExtendUrl(rental.id)}`
  );
}
