import type { AvailabilityTerms } from "@/lib/availability/availability-terms";
import { uptimeSentence } from "@/lib/availability/describe-availability";
import { botCommand } from "@/lib/channels/bot-commands";
import type { ChatPlatform } from "@/lib/channels/chat-platform";
import { rentalUnusableReason } from "@/lib/channels/rental-unusable-reason";
import { formatUsdc } from "@/lib/format/usdc";

type EndedRental = { status: string; startsAt: Date; endsAt: Date; agent: { name: string } };

/**
 * What the chat sweep tells a chat it disconnects, in the words of what happened to the rental: a
 * dispute freezes it (and a dispute decided for the owner gives it back), it is not "over". A
 * rental that ran to its end is told its measured uptime and the refund due (`terms`).
 */
export function chatEndNotice(platform: ChatPlatform, rental: EndedRental, now: Date, terms?: AvailabilityTerms): string {
  const why = rentalUnusableReason(rental, now) ?? "This rental can no longer be used.";
  const agent = rental.agent.name;
  switch (rental.status) {
    case "disputed":
      return (
        `Your rental of ${agent} is disputed, so this chat is disconnected. ${why} ` +
        `If the dispute is decided for the owner while the rental still runs, send ${botCommand(platform, "start")} here again.`
      );
    case "cancelled":
      return `Your rental of ${agent} was cancelled, so this chat is disconnected. ${why}`;
    default:
      return `Your rental of ${agent} is over, so this chat is disconnected. ${why}${terms ? ` ${uptimeSentence(terms)} ${refundSentence(terms)}` : ""}`;
  }
}

function refundSentence(terms: AvailabilityTerms): string {
  return terms.refundMicro > 0n
    ? `${formatUsdc(terms.refundMicro)} of the price comes back to your wallet for the downtime when the payment is settled.`
    : "That is within the guarantee: the payment goes to the owner.";
}
