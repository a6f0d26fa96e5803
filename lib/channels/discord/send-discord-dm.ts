import "server-only";
import { chatBot, postToChat } from "@/lib/channels/chat-bot";
import { discordPlatform } from "@/lib/channels/discord/discord-platform";

/**
 * A direct message from the bot to a user (a notice): Discord opens the DM only for users who
 * share a server with the bot or installed the app.
 */
export async function sendDiscordDm(userId: string, text: string): Promise<void> {
  const bot = await chatBot();
  await bot.initialize();
  const dm = await bot.getAdapter(discordPlatform.adapterName).openDM?.(userId);
  if (!dm) throw new Error("The Discord adapter opens no DMs");
  await postToChat(discordPlatform, dm, text);
}
