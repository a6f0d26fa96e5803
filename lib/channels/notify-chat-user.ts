import "server-only";
import type { ChatPlatform } from "@/lib/channels/chat-platform";
import { sendDiscordDm } from "@/lib/channels/discord/send-discord-reply";
import { sendSlackReply } from "@/lib/channels/slack/send-slack-reply";
import { sendTelegramReply } from "@/lib/channels/telegram/send-telegram-reply";

export type ChatTarget = { platform: ChatPlatform; id: string; chatId: string | null };

/** Whether the platform gives a way to write to them first: Telegram and Slack need their chat. */
export function canNotify(target: ChatTarget): boolean {
  return target.platform === "Discord" || target.chatId !== null;
}

/**
 * A message from the service to a chat user outside any request of theirs, sent now; throws what
 * the platform answered when it did not take it. Only the sender calls it, for a queued notice
 * (lib/channels/send-chat-notices.ts); everyone else queues (lib/channels/queue-chat-notice.ts).
 */
export async function notifyChatUser(target: ChatTarget, text: string): Promise<void> {
  if (!canNotify(target)) throw new Error(`a ${target.platform} chat user can be written to only in their chat`);
  switch (target.platform) {
    case "Telegram":
      return sendTelegramReply(target.chatId!, text);
    case "Slack":
      return sendSlackReply(target.id.split(":")[0], target.chatId!, text);
    case "Discord":
      // A DM is allowed only to users who share a server with the bot or installed the app.
      return sendDiscordDm(target.id, text);
  }
}
