import "server-only";
import type { Message } from "chat";
import { ANY_MESSAGE_CHATS } from "@/lib/channels/bot-platform";
import { telegramMessageRequest } from "@/lib/channels/dev/telegram-requests";
import type { SdkPlatform } from "@/lib/channels/sdk-platform";
import type { Delivered } from "@/lib/channels/telegram/telegram-bot";
import { env } from "@/lib/env";

/** The bot's command menu in Telegram (setMyCommands): what the chat's "/" list shows. */
export const TELEGRAM_COMMANDS = [
  { command: "start", description: "Connect your rental: /start <rental code>" },
  { command: "status", description: "Which agent you are connected to, and the time left" },
  { command: "extend", description: "A link to extend your rental (same code, same chat)" },
  { command: "stop", description: "Disconnect this chat (the rental keeps running)" },
  { command: "help", description: "What this bot does" },
];

/**
 * The Telegram bot (/api/channels/telegram) on the Bot API through `@chat-adapter/telegram`: a
 * webhook with a secret token (X-Telegram-Bot-Api-Secret-Token, compared in constant time by the
 * adapter), text in private chats only, replies in the chat as plain text.
 */
export const telegramPlatform: SdkPlatform = {
  name: "Telegram",
  adapterName: "telegram",
  configured: () => Boolean(env.TELEGRAM_BOT_TOKEN && env.TELEGRAM_WEBHOOK_SECRET && env.TELEGRAM_BOT_USERNAME),
  apiUrl: () => env.TELEGRAM_API_URL,
  checkoutLinks: () => ({ telegramBot: env.TELEGRAM_BOT_USERNAME ?? null }),
  adapterOptions: () => ({
    botToken: env.TELEGRAM_BOT_TOKEN ?? "",
    secretToken: env.TELEGRAM_WEBHOOK_SECRET ?? "",
    userName: env.TELEGRAM_BOT_USERNAME ?? "",
    apiUrl: env.TELEGRAM_API_URL.replace(/\/+$/, ""),
  }),
  createAdapter: async (options) => (await import("@/lib/channels/telegram/telegram-bot")).telegramBot(options),
  chatUser: (message) => {
    const { from, chat } = message.raw as Delivered;
    return {
      platform: "Telegram",
      id: String(from?.id),
      chatId: String(chat.id),
      label: from?.username ? `@${from.username}` : (from?.first_name ?? `user ${from?.id}`),
    };
  },
  delivery: (message: Message) => {
    const raw = message.raw as Delivered;
    return raw.from && raw.chat.type === "private" && typeof raw.text === "string" ? { key: String(raw.update_id), text: raw.text } : null;
  },
  messageLimit: 4_096,
  // Telegram's "typing…" shows for 5 seconds.
  typingEveryMs: 4_000,
  howToChat: ANY_MESSAGE_CHATS,
  simulatedRequest: (base, userId, text) =>
    telegramMessageRequest(`${base}/telegram`, env.TELEGRAM_WEBHOOK_SECRET ?? "", { id: Number(userId), username: `dev${userId}` }, text),
};

/** The operator's setup: the webhook with its secret token, only message updates, and the command menu. */
export async function setTelegramWebhook(url: string): Promise<void> {
  const { telegramBot } = await import("@/lib/channels/telegram/telegram-bot");
  const bot = telegramBot(telegramPlatform.adapterOptions());
  await bot.call("setWebhook", { url, secret_token: env.TELEGRAM_WEBHOOK_SECRET, allowed_updates: ["message"] });
  await bot.call("setMyCommands", { commands: TELEGRAM_COMMANDS });
}
