import { botCommand } from "@/lib/channels/bot-commands";
import type { ChatPlatform } from "@/lib/channels/chat-platform";
import { rentalUnusableReason } from "@/lib/channels/rental-unusable-reason";

type EndedRental = { status: string; startsAt: Date; endsAt: Date; agent: { name: string } };

/**
 * What the chat sweep tells a chat it disconnects, in the words of what happened to the rental: a
 * dispute freezes it (and a dispute decided for the owner gives it back), it is not "over".
 */
export function chatEndNotice(platform: ChatPlatform, rental: EndedRental, now: Date): string {
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
      return `Your rental of ${agent} is over, so this chat is disconnected. ${why}`;
  }
}
