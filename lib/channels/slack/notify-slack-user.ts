import "server-only";
import { chatBot, postToChat } from "@/lib/channels/chat-bot";
import type { ChatTarget } from "@/lib/channels/chat-platform";
import type { SlackBot } from "@/lib/channels/slack/slack-bot";
import { slackPlatform } from "@/lib/channels/slack/slack-platform";

/** A notice to a Slack user's DM with the app (their chatId), with their workspace's bot token. */
export async function notifySlackUser(target: ChatTarget, text: string): Promise<void> {
  const bot = await chatBot();
  await bot.initialize();
  const adapter = bot.getAdapter(slackPlatform.adapterName) as SlackBot;
  const dm = adapter.encodeThreadId({ channel: target.chatId!, threadTs: "" });
  await adapter.asWorkspace(target.id.split(":")[0], () => postToChat(slackPlatform, dm, text));
}
