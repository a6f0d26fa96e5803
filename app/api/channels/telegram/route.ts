// POST /api/channels/telegram — the Telegram bot's webhook (setWebhook with a secret token):
// /start <code>, /status, /stop, /help, and messages to the rented agent (docs/channels.md).
import { handleTelegramUpdate } from "@/lib/channels/telegram/handle-telegram-update";
import { verifyTelegramRequest } from "@/lib/channels/telegram/verify-telegram-request";
import { channelRoute } from "@/lib/http/routes/channel-route";

export const runtime = "nodejs";
// The owner call runs after the answer to Telegram, for up to the 30 s webhook timeout.
export const maxDuration = 60;

export const { POST, GET, PUT, PATCH, DELETE } = channelRoute("Telegram", {
  verify: (headers) => verifyTelegramRequest(headers),
  handle: (_headers, body) => handleTelegramUpdate(body),
});
