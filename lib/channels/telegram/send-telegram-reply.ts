import "server-only";
import { FULL_REPLY_POINTER, splitReply } from "@/lib/channels/reply-text";
import { telegramApi } from "@/lib/channels/telegram/telegram-api";

// Telegram's limit per message is 4,096 characters; a long reply goes out in at most 3.
const TELEGRAM_LIMIT = 4096;
const MAX_PARTS = 3;

/** Sends text to a Telegram chat as plain text (no Markdown: nothing in a reply is interpreted). */
export async function sendTelegramReply(chatId: string, text: string): Promise<void> {
  const api = telegramApi();
  for (const part of splitReply(text, TELEGRAM_LIMIT, MAX_PARTS, FULL_REPLY_POINTER)) {
    await api.sendMessage(chatId, part, { link_preview_options: { is_disabled: true } });
  }
}
