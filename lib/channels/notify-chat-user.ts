import "server-only";
import type { ChatPlatform } from "@/lib/channels/chat-platform";
import { sendSlackReply } from "@/lib/channels/slack/send-slack-reply";
import { sendTelegramReply } from "@/lib/channels/telegram/send-telegram-reply";

type Target = { platform: ChatPlatform; id: string; chatId: string | null };

/**
 * A message from the service to a chat user outside any request of theirs (the rental ended):
 * true when it went out, false where the platform gives no way to reach them.
 */
export async function notifyChatUser(target: Target, text: string): Promise<boolean> {
  switch (target.platform) {
    case "Telegram":
      if (!target.chatId) return false;
      await sendTelegramReply(target.chatId, text);
      return true;
    case "Slack":
      if (!target.chatId) return false;
      await sendSlackReply(target.id.split(":")[0], target.chatId, text);
      return true;
    case "Discord":
      // Not built yet (issue 11): the Discord bot does not exist, so no Discord chat is bound.
      return false;
  }
}
