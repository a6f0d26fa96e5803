import "server-only";
import type { ChatUser } from "@/lib/channels/chat-platform";
import { db } from "@/lib/db";

/** The key of a chat user's open binding (chat_bindings.open_user). */
export function openUserKey(user: Pick<ChatUser, "platform" | "id">): string {
  return `${user.platform}:${user.id}`;
}

/** The chat user's open binding on their platform, with its rental and agent, or null. */
export async function findOpenBinding(user: Pick<ChatUser, "platform" | "id">) {
  return db.chatBinding.findUnique({
    where: { openUser: openUserKey(user) },
    include: {
      rental: { select: { id: true, status: true, startsAt: true, endsAt: true, agent: { select: { name: true } } } },
    },
  });
}
