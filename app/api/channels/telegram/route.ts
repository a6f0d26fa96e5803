// POST /api/channels/telegram — the Telegram bot's webhook (setWebhook with a secret token):
// /start <code>, /status, /extend, /stop, /help, and messages to the rented agent (docs/channels.md).
import { telegramPlatform } from "@/lib/channels/telegram/telegram-platform";
import { sdkChannelRoute } from "@/lib/http/routes/sdk-channel-route";

export const runtime = "nodejs";
// The owner call runs after the answer to Telegram, for up to the 30 s webhook timeout.
export const maxDuration = 60;

export const { POST, GET, PUT, PATCH, DELETE } = sdkChannelRoute(telegramPlatform, ["POST"]);
