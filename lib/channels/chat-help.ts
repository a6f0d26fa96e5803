import { botCommand, MOVE_CHAT_BUTTON } from "@/lib/channels/bot-commands";
import { BOT_PLATFORMS } from "@/lib/channels/bot-platforms";
import type { ChatPlatform } from "@/lib/channels/chat-platform";

/** `/help`: what the bot does and its commands, in the platform's own syntax. */
export function chatHelp(platform: ChatPlatform): string {
  const chat = BOT_PLATFORMS[platform].howToChat.help;
  return [
    "This bot connects you to an AI agent you rented on the Agent Rental Service.",
    `${botCommand(platform, "start")}: connect your rental (the code shown after payment);`,
    `${chat};`,
    `${botCommand(platform, "status")}: the agent and the time left;`,
    `${botCommand(platform, "extend")}: a link to extend the rental (same code, same chat);`,
    `${botCommand(platform, "stop")}: disconnect (the rental keeps running).`,
    `A rental stays with the account that connected it: its code alone connects no other. To move it to another account, press ${MOVE_CHAT_BUTTON}.`,
  ].join("\n");
}
