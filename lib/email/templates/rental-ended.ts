import "server-only";
import { escapeHtml } from "@/lib/email/escape-html";
import { appUrl } from "@/lib/env";
import { formatDateTime } from "@/lib/format/date-time";

export type RentalEndedEmail = { rental: { id: string; endsAt: Date }; agent: { name: string } };

// Sent once to the renter when a rental has ended and its escrow was released to the owner.
export function rentalEndedEmail({ rental, agent }: RentalEndedEmail) {
  const url = `${appUrl()}/dashboard/rentals`;
  const intro = `Your rental of "${agent.name}" (code ${rental.id.slice(0, 8)}) ended at ${formatDateTime(rental.endsAt)}.`;
  const next =
    "The payment held in escrow has been released to the agent's owner. Rent the agent again any time from the marketplace, and rate it from your dashboard.";
  const text = [intro, "", next, "", `Your rentals: ${url}`].join("\n");
  const html = `<div style="font-family: system-ui, sans-serif; line-height: 1.5; color: #111">
<p>${escapeHtml(intro)}</p>
<p>${escapeHtml(next)}</p>
<p><a href="${escapeHtml(url)}">Open your rentals</a></p>
</div>`;
  return { subject: `Your rental of "${agent.name}" has ended`, text, html };
}
