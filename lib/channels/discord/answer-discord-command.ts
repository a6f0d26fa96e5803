import "server-only";
import type { SlashCommandEvent } from "chat";
import { answerChatCommand } from "@/lib/channels/answer-chat-text";
import { postToChat } from "@/lib/channels/chat-bot";
import type { ChatUser } from "@/lib/channels/chat-platform";
import { claimDelivery } from "@/lib/channels/claim-delivery";
import { discordPlatform } from "@/lib/channels/discord/discord-platform";
import { relayChatMessage } from "@/lib/channels/relay-chat-message";
import { afterResponse } from "@/lib/http/after-response";

type CommandData = { options?: { name: string; value?: unknown }[] };

/**
 * One slash command, after the adapter answered Discord with "thinking…" (visible to the sender
 * only): claimed by its interaction id (a repeat is dropped), answered by the rental logic after
 * the response has gone (Discord refuses an edit of a "thinking…" it does not have yet). The
 * adapter edits the answer into the "thinking…" message and sends the rest of a long one as
 * follow-ups, all seen by the sender only: start, chat (a message to the agent through the one
 * chat path), status, extend, stop.
 */
export async function answerDiscordCommand(event: SlashCommandEvent): Promise<void> {
  const interaction = event.raw as { id: string; data: CommandData };
  if (!(await claimDelivery("Discord", interaction.id))) return;
  const user: ChatUser = {
    platform: "Discord",
    id: event.user.userId,
    chatId: null,
    label: `@${event.user.userName || event.user.userId}`,
  };
  const option = (name: string) => String(interaction.data.options?.find((o) => o.name === name)?.value ?? "");
  await new Promise<void>((resolve) => void afterResponse("a Discord command", async () => resolve()));
  await postToChat(discordPlatform, event.channel.id, await answer(user, event.command.replace(/^\//, ""), option));
}

// /chat goes to the agent; the others are the bot's commands, as on every platform.
async function answer(user: ChatUser, command: string, option: (name: string) => string): Promise<string> {
  if (command === "chat") return (await relayChatMessage(user, option("message"))).text;
  return answerChatCommand(user, command, option("code"), `/${command}`);
}
