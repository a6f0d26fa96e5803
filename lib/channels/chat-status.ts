import "server-only";
import { botCommand } from "@/lib/channels/bot-commands";
import type { ChatUser } from "@/lib/channels/chat-platform";
import { findOpenBinding } from "@/lib/channels/find-open-binding";
import { rentalUnusableReason } from "@/lib/channels/rental-unusable-reason";
import { formatDateTime } from "@/lib/format/date-time";
import { formatTimeLeft } from "@/lib/format/time-left";

/** `/status`: which agent the chat user is connected to and how long the rental has left. */
export async function chatStatus(user: ChatUser, now: Date = new Date()): Promise<string> {
  const binding = await findOpenBinding(user);
  if (!binding)
    return `You are not connected to an agent. Send ${botCommand(user.platform, "start")} with your rental code to connect one.`;
  const { rental } = binding;
  const unusable = rentalUnusableReason(rental, now);
  if (unusable) return `Connected to ${rental.agent.name}. ${unusable}`;
  return `Connected to ${rental.agent.name}. The rental ends ${formatDateTime(rental.endsAt)} (${formatTimeLeft(rental.endsAt.getTime() - now.getTime())} left).`;
}
