// The operator commands that set up the chat bots on their platforms (docs/channels.md).

import { registerDiscordCommands } from "@/lib/channels/discord/discord-platform";
import { slackManifest } from "@/lib/channels/slack/slack-manifest";
import { setTelegramWebhook, TELEGRAM_COMMANDS } from "@/lib/channels/telegram/telegram-platform";
import { appUrl, env } from "@/lib/env";
import type { Flags } from "./cli-commands";

type Command = { usage: string; run(flags: Flags): Promise<unknown> };

export const channelCommands: Record<string, Command> = {
  "channels:telegram:set-webhook": {
    usage: "channels:telegram:set-webhook   (Telegram: the bot's webhook with its secret token, and its command list)",
    async run() {
      if (!env.TELEGRAM_BOT_TOKEN || !env.TELEGRAM_WEBHOOK_SECRET)
        throw new Error("Set TELEGRAM_BOT_TOKEN and TELEGRAM_WEBHOOK_SECRET first.");
      const url = `${appUrl().replace(/\/+$/, "")}/api/channels/telegram`;
      // Only messages: the bot reads nothing else, so Telegram sends nothing else.
      await setTelegramWebhook(url);
      return { webhook: url, allowedUpdates: ["message"], commands: TELEGRAM_COMMANDS.map((c) => `/${c.command}`) };
    },
  },
  "channels:slack:manifest": {
    usage: "channels:slack:manifest   (Slack: the app manifest to create the app from, for this APP_URL)",
    async run() {
      return slackManifest(appUrl().replace(/\/+$/, ""));
    },
  },
  "channels:discord:register-commands": {
    usage: "channels:discord:register-commands   (Discord: the slash commands start, chat, status and stop, for DMs and servers)",
    async run() {
      if (!env.DISCORD_APPLICATION_ID || !env.DISCORD_BOT_TOKEN) throw new Error("Set DISCORD_APPLICATION_ID and DISCORD_BOT_TOKEN first.");
      // PUT replaces the whole global list: commands no longer listed are removed.
      return { registered: (await registerDiscordCommands()).map((c) => `/${c.name}`) };
    },
  },
};
