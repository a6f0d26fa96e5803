import "server-only";
import type { ChatPlatform } from "@/lib/channels/chat-platform";
import { sendDiscordDm } from "@/lib/channels/discord/send-discord-reply";
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
      // A DM is allowed only to users who share a server with the bot or installed the app.
      return sendDiscordDm(target.id, text).then(
        () => true,
        () => false,
      );
  }
}
