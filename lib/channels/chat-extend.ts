import "server-only";
import { botCommand } from "@/lib/channels/bot-commands";
import type { ChatUser } from "@/lib/channels/chat-platform";
import { findOpenBinding } from "@/lib/channels/find-open-binding";
import { rentalUnusableReason } from "@/lib/channels/rental-unusable-reason";
import { appUrl } from "@/lib/env";
import { formatDateTime } from "@/lib/format/date-time";

/** The page where the renter's wallet extends a rental (docs/extend.md): reminders and the bots link here. */
export function extendPageUrl(rentalId: string): string {
  return `${appUrl()}/dashboard/rentals/${rentalId}/extend`;
}

/**
 * `/extend` (Telegram, Discord) and `/agent extend` (Slack): the link to the page that signs the
 * extension of the connected rental. Chat cannot pay: the wallet that paid signs there, in one
 * transaction; the code, this chat and the conversation stay the same.
 */
export async function chatExtend(user: ChatUser, now: Date = new Date()): Promise<string> {
  const binding = await findOpenBinding(user);
  if (!binding)
    return `You are not connected to an agent. Send ${botCommand(user.platform, "start")} with your rental code to connect one, then ${botCommand(user.platform, "extend")}.`;
  const { rental } = binding;
  const unusable = rentalUnusableReason(rental, now);
  if (unusable) return `${rental.agent.name}: ${unusable} It cannot be extended.`;
  return [
    `Your rental of ${rental.agent.name} ends ${formatDateTime(rental.endsAt)}.`,
    `Extend it here (sign in with the wallet that paid; one transaction): ${extendPageUrl(rental.id)}`,
    "The code, this chat and the conversation stay the same.",
  ].join("\n");
}
