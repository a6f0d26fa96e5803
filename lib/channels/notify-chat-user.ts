import "server-only";
import { BOT_PLATFORMS } from "@/lib/channels/bot-platforms";
import type { ChatTarget } from "@/lib/channels/chat-platform";

/** Whether the platform gives a way to write to them first (some need the chat they wrote from). */
export function canNotify(target: ChatTarget): boolean {
  return BOT_PLATFORMS[target.platform].canNotify(target);
}

/**
 * A message from the service to a chat user outside any request of theirs, sent now; throws what
 * the platform answered when it did not take it. Only the sender calls it, for a queued notice
 * (lib/channels/send-chat-notices.ts); everyone else queues (lib/channels/queue-chat-notice.ts).
 */
export async function notifyChatUser(target: ChatTarget, text: string): Promise<void> {
  if (!canNotify(target)) throw new Error(`a ${target.platform} chat user can be written to only in their chat`);
  await BOT_PLATFORMS[target.platform].notify(target, text);
}
