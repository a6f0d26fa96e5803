import "server-only";
import type { AvailabilityTerms } from "@/lib/availability/availability-terms";
import { uptimeSentence } from "@/lib/availability/describe-availability";
import { agentDashboardUrl } from "@/lib/email/templates/agent-dashboard-url";
import { plainEmail } from "@/lib/email/templates/plain-email";
import { appUrl } from "@/lib/env";
import { formatDateTime } from "@/lib/format/date-time";
import { formatUsdc } from "@/lib/format/usdc";

export type RentalEndedEmail = {
  rental: { id: string; ref: string; agentId: string; endsAt: Date; priceMicro: bigint };
  agent: { name: string };
  terms: AvailabilityTerms;
  /** What the escrow paid back to the renter for down minutes (0: the whole price went to the owner). */
  refundMicro: bigint;
};

// Sent once to the renter when a rental has ended and its escrow was settled.
export function rentalEndedEmail({ rental, agent, terms, refundMicro }: RentalEndedEmail) {
  return plainEmail(
    `Your rental of "${agent.name}" has ended`,
    [
      `Your rental of "${agent.name}" (code ${rental.id.slice(0, 8)}) ended at ${formatDateTime(rental.endsAt)}.`,
      uptimeSentence(terms),
      refundMicro > 0n
        ? `${formatUsdc(refundMicro)} of the price was refunded to your wallet for the time the agent was down; the rest was released to the agent's owner.`
        : "The payment held in escrow has been released to the agent's owner.",
      "Rent the agent again any time from the marketplace, and rate it from your dashboard.",
    ],
    { url: `${appUrl()}/dashboard/rentals`, label: "Open your rentals" },
  );
}

// Sent once to the owner when a rental of their agent has been settled: named by its reference,
// never by its id (whose first characters are the renter's code).
export function rentalPaidOutEmail({ rental, agent, terms, refundMicro }: RentalEndedEmail) {
  const received = rental.priceMicro - refundMicro;
  return plainEmail(
    `A rental of "${agent.name}" ended: ${formatUsdc(received)} paid to you`,
    [
      `The rental ${rental.ref} of "${agent.name}" ended at ${formatDateTime(rental.endsAt)}.`,
      uptimeSentence(terms),
      refundMicro > 0n
        ? `You received ${formatUsdc(received)}: the price of ${formatUsdc(rental.priceMicro)} less ${formatUsdc(refundMicro)} refunded to the renter for the down minutes beyond your guarantee.`
        : `You received the full price of ${formatUsdc(rental.priceMicro)}.`,
    ],
    { url: agentDashboardUrl(rental.agentId), label: "Open the listing" },
  );
}
