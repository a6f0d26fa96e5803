import "server-only";
import type { SlashCommandEvent } from "chat";
import { answerChatCommand } from "@/lib/channels/answer-chat-text";
import { postToChat } from "@/lib/channels/chat-bot";
import type { SlackBot } from "@/lib/channels/slack/slack-bot";
import { slackPlatform } from "@/lib/channels/slack/slack-platform";

/**
 * `/agent <word> <rest>`, once the adapter has claimed it and told Slack "On it"
 * (lib/channels/slack/slack-bot.ts): answered in the person's direct messages with the app (opened
 * if it was not), the chat their messages to the agent go through.
 */
export async function answerSlackCommand(event: SlashCommandEvent): Promise<void> {
  const adapter = event.adapter as SlackBot;
  const { team_id: teamId, user_id: userId, user_name: userName } = event.raw as Record<string, string | undefined>;
  const dm = await adapter.openDM(userId!);
  const user = {
    platform: "Slack" as const,
    id: `${teamId}:${userId}`,
    chatId: adapter.decodeThreadId(dm).channel,
    label: userName ? `@${userName}` : `Slack user ${userId}`,
  };
  const [word = "", ...rest] = event.text.trim().split(/\s+/);
  await postToChat(slackPlatform, dm, await answerChatCommand(user, word, rest.join(" "), `${event.command} ${word}`));
}
