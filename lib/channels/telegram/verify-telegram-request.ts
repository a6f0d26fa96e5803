import "server-only";
import { constantTimeEqual } from "@/lib/crypto/constant-time-equal";
import { env } from "@/lib/env";

/** Telegram sends setWebhook's secret_token back in this header on every update. */
export function verifyTelegramRequest(headers: Headers): boolean {
  const given = headers.get("x-telegram-bot-api-secret-token");
  return Boolean(env.TELEGRAM_WEBHOOK_SECRET && given && constantTimeEqual(given, env.TELEGRAM_WEBHOOK_SECRET));
}
