import "server-only";
import { TelegramAdapter, type TelegramAdapterConfig, type TelegramMessage, type TelegramUpdate } from "@chat-adapter/telegram";
import { ConsoleLogger, type Message, type WebhookOptions } from "chat";
import { ANY_MESSAGE_CHATS } from "@/lib/channels/bot-platform";
import { telegramMessageRequest } from "@/lib/channels/dev/telegram-requests";
import type { SdkPlatform } from "@/lib/channels/sdk-platform";
import { env } from "@/lib/env";

// A Bot API call unanswered this long is given up (a notice then is never repeated: it may have arrived).
const CALL_TIMEOUT_MS = 15_000;

/** The bot's command menu in Telegram (setMyCommands): what the chat's "/" list shows. */
export const TELEGRAM_COMMANDS = [
  { command: "start", description: "Connect your rental: /start <rental code>" },
  { command: "status", description: "Which agent you are connected to, and the time left" },
  { command: "extend", description: "A link to extend your rental (same code, same chat)" },
  { command: "stop", description: "Disconnect this chat (the rental keeps running)" },
  { command: "help", description: "What this bot does" },
];

// A message as the bot reads it: with the update_id it came in, the key a retry repeats.
type Delivered = TelegramMessage & { update_id: number };

/**
 * `@chat-adapter/telegram` where this bot differs from the adapter's defaults: only `message`
 * updates count; commands are text like any other (lib/channels/answer-chat-text.ts), not the
 * SDK's slash-command events; "typing…" only while the agent thinks (lib/channels/chat-bot.ts);
 * the bot's identity from its token, so no getMe stands between Telegram and its 200; replies
 * without link previews; every call within 15 s; a refused call keeps Telegram's error_code,
 * description and retry_after (lib/channels/judge-notice-failure.ts judges a notice's failure by them).
 */
class TelegramBot extends TelegramAdapter {
  /** A Bot API method the adapter has no call for (the operator's setup). */
  call(method: string, payload: Record<string, unknown>): Promise<unknown> {
    return this.telegramFetch(method, payload);
  }

  protected override processUpdate(update: TelegramUpdate, options?: WebhookOptions) {
    if (!update.message) return;
    const message: Delivered = { ...update.message, update_id: update.update_id };
    return super.processUpdate({ update_id: update.update_id, message }, options);
  }

  protected override parseSlashCommand() {
    return null;
  }

  protected override startTypingForPrivateMessage() {}

  protected override async telegramFetch<T>(
    method: string,
    payload?: Record<string, unknown> | FormData,
    request?: { signal?: AbortSignal },
  ): Promise<T> {
    const id = /^(\d+):/.exec(this.staticBotToken ?? "")?.[1];
    if (method === "getMe" && id) return { id: Number(id), is_bot: true, first_name: this.userName, username: this.userName } as T;
    const body =
      method === "sendMessage" && payload && !(payload instanceof FormData)
        ? { ...payload, link_preview_options: { is_disabled: true } }
        : payload;
    return super.telegramFetch<T>(method, body, { signal: request?.signal ?? AbortSignal.timeout(CALL_TIMEOUT_MS) });
  }

  protected override throwTelegramApiError(
    method: string,
    status: number,
    data: { error_code?: number; description?: string; parameters?: { retry_after?: number } },
  ): never {
    try {
      super.throwTelegramApiError(method, status, { ok: false, ...data });
    } catch (error) {
      throw Object.assign(error as Error, {
        error_code: data.error_code ?? status,
        description: data.description,
        parameters: data.parameters,
      });
    }
  }
}

// Every option from lib/env.ts: none left to the adapter's own environment variables.
function telegramBot(options: Record<string, string>): TelegramBot {
  const config: TelegramAdapterConfig = {
    ...options,
    mode: "webhook",
    allowUnverifiedWebhooks: false,
    allowedUserIds: [],
    mentionOnReply: false,
    businessMode: false,
    nativeStreaming: false,
    logger: new ConsoleLogger("warn"),
  };
  return new TelegramBot(config);
}

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
  adapterOptions: () => ({
    botToken: env.TELEGRAM_BOT_TOKEN ?? "",
    secretToken: env.TELEGRAM_WEBHOOK_SECRET ?? "",
    userName: env.TELEGRAM_BOT_USERNAME ?? "",
    apiUrl: env.TELEGRAM_API_URL.replace(/\/+$/, ""),
  }),
  createAdapter: telegramBot,
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
  const bot = telegramBot(telegramPlatform.adapterOptions());
  await bot.call("setWebhook", { url, secret_token: env.TELEGRAM_WEBHOOK_SECRET, allowed_updates: ["message"] });
  await bot.call("setMyCommands", { commands: TELEGRAM_COMMANDS });
}
