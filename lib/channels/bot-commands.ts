import type { ChatPlatform } from "@/lib/channels/chat-platform";

export type BotCommand = "start" | "status" | "extend" | "stop" | "help";

// How a person types each command on each platform: Telegram's bot commands, Discord's slash
// commands (the code is an option), Slack's one slash command with a word after it, WhatsApp's
// plain words (lib/channels/answer-chat-text.ts). Teams and Google Chat take the same plain words in
// a direct message with the app (their bots are talked to, not commanded; a leading "/" works too).
const COMMANDS: Record<ChatPlatform, Record<BotCommand, string>> = {
  Telegram: { start: "/start <code>", status: "/status", extend: "/extend", stop: "/stop", help: "/help" },
  Discord: { start: "/start code:<code>", status: "/status", extend: "/extend", stop: "/stop", help: "/start" },
  Slack: { start: "/agent start <code>", status: "/agent status", extend: "/agent extend", stop: "/agent stop", help: "/agent help" },
  WhatsApp: { start: "start <code>", status: "status", extend: "extend", stop: "stop", help: "help" },
  Teams: { start: "start <code>", status: "status", extend: "extend", stop: "stop", help: "help" },
  GoogleChat: { start: "start <code>", status: "status", extend: "extend", stop: "stop", help: "help" },
};

/** The command as the person types it; `code` fills in the start command's placeholder. */
export function botCommand(platform: ChatPlatform, command: BotCommand, code?: string): string {
  const text = COMMANDS[platform][command];
  return code ? text.replace("<code>", code) : text;
}

/**
 * Where a renter moves a rental to another chat account: not a bot command, as the code alone
 * never moves a rental the renter connected, but a button on the renter's own pages.
 */
export const MOVE_CHAT_BUTTON = `"Move to another chat account" on the rental's page in your dashboard (or on the checkout page, while it is open)`;
