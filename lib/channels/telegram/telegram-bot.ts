import "server-only";
import { TelegramAdapter, type TelegramAdapterConfig, type TelegramMessage, type TelegramUpdate } from "@chat-adapter/telegram";
import { ConsoleLogger, type WebhookOptions } from "chat";

// The adapter itself, apart from lib/channels/telegram/telegram-platform.ts so that reading the
// platform's settings never loads the Chat SDK: imported by the first message or notice.

// A Bot API call unanswered this long is given up (a notice then is never repeated: it may have arrived).
const CALL_TIMEOUT_MS = 15_000;

// A message as the bot reads it: with the update_id it came in, the key a retry repeats.
export type Delivered = TelegramMessage & { update_id: number };

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
export function telegramBot(options: Record<string, string>): TelegramBot {
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
