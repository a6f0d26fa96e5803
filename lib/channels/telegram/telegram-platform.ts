import "server-only";
import type { BotPlatform } from "@/lib/channels/bot-platform";
import { telegramMessageRequest } from "@/lib/channels/dev/telegram-requests";
import { sendTelegramReply } from "@/lib/channels/telegram/send-telegram-reply";
import { env } from "@/lib/env";

/** The Telegram bot (/api/channels/telegram): a webhook with a secret token, replies in the chat. */
export const telegramPlatform: BotPlatform = {
  configured: () => Boolean(env.TELEGRAM_BOT_TOKEN && env.TELEGRAM_WEBHOOK_SECRET && env.TELEGRAM_BOT_USERNAME),
  apiUrl: () => env.TELEGRAM_API_URL,
  howToChat: { help: "any other message goes to the agent", afterStart: "just send a message here" },
  // A bot may write only to a chat the person opened with it.
  canNotify: (target) => target.chatId !== null,
  notify: (target, text) => sendTelegramReply(target.chatId!, text),
  simulatedRequest: (base, userId, text) =>
    telegramMessageRequest(`${base}/telegram`, env.TELEGRAM_WEBHOOK_SECRET ?? "", { id: Number(userId), username: `dev${userId}` }, text),
};
