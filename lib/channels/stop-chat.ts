import "server-only";
import { botCommand } from "@/lib/channels/bot-commands";
import type { ChatUser } from "@/lib/channels/chat-platform";
import { findOpenBinding } from "@/lib/channels/find-open-binding";
import { ended } from "@/lib/channels/start-chat";
import { db } from "@/lib/db";
import { formatDateTime } from "@/lib/format/date-time";

/** `/stop`: ends the chat user's binding; the rental runs on and can be started again anywhere. */
export async function stopChat(user: ChatUser, now: Date = new Date()): Promise<string> {
  const binding = await findOpenBinding(user);
  if (!binding) return `You are not connected to an agent. Send ${botCommand(user.platform, "start")} to connect one.`;
  await db.chatBinding.updateMany({ where: { id: binding.id, endedAt: null }, data: ended("stopped", now) });
  const runs = binding.rental.endsAt > now ? ` The rental runs until ${formatDateTime(binding.rental.endsAt)}:` : "";
  return `Disconnected from ${binding.rental.agent.name}.${runs} send ${botCommand(user.platform, "start")} with its code to connect again, here or from another account.`;
}
