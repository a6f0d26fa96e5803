import "server-only";
import { botCommand, MOVE_CHAT_BUTTON } from "@/lib/channels/bot-commands";
import type { ChatUser } from "@/lib/channels/chat-platform";
import { endedBinding } from "@/lib/channels/ended-binding";
import { findOpenBinding } from "@/lib/channels/find-open-binding";
import { db } from "@/lib/db";
import { formatDateTime } from "@/lib/format/date-time";

/** `/stop`: ends the chat user's binding; the rental runs on and this chat account can start it again. */
export async function stopChat(user: ChatUser, now: Date = new Date()): Promise<string> {
  const binding = await findOpenBinding(user);
  if (!binding) return `You are not connected to an agent. Send ${botCommand(user.platform, "start")} to connect one.`;
  await db.chatBinding.updateMany({ where: { id: binding.id, endedAt: null }, data: endedBinding("stopped", now) });
  const send = binding.rental.endsAt > now ? `The rental runs until ${formatDateTime(binding.rental.endsAt)}: send` : "Send";
  // The rental stays this chat account's: the code alone connects it here again, and nowhere else.
  return (
    `Disconnected from ${binding.rental.agent.name}. ${send} ${botCommand(user.platform, "start")} here to connect again. ` +
    `To use it from another account, press ${MOVE_CHAT_BUTTON}.`
  );
}
