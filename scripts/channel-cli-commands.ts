// The operator commands that set up the chat bots on their platforms (docs/channels.md).

import { slackManifest } from "@/lib/channels/slack/slack-manifest";
import { telegramApi } from "@/lib/channels/telegram/telegram-api";
import { TELEGRAM_COMMANDS } from "@/lib/channels/telegram/telegram-commands";
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
      const api = telegramApi();
      // Only messages: the bot reads nothing else, so Telegram sends nothing else.
      await api.setWebhook(url, { secret_token: env.TELEGRAM_WEBHOOK_SECRET, allowed_updates: ["message"] });
      await api.setMyCommands(TELEGRAM_COMMANDS);
      return { webhook: url, allowedUpdates: ["message"], commands: TELEGRAM_COMMANDS.map((c) => `/${c.command}`) };
    },
  },
  "channels:slack:manifest": {
    usage: "channels:slack:manifest   (Slack: the app manifest to create the app from, for this APP_URL)",
    async run() {
      return slackManifest(appUrl().replace(/\/+$/, ""));
    },
  },
};
