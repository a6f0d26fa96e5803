import "server-only";
import { Api } from "grammy";
import { env } from "@/lib/env";

/**
 * grammY's Bot API client alone (no update loop, no webhook adapter: the route answers Telegram
 * itself and runs the owner call afterwards). TELEGRAM_API_URL points it at a local mock in
 * development and tests; calls go to {TELEGRAM_API_URL}/bot<token>/<method>.
 */
export function telegramApi(): Api {
  if (!env.TELEGRAM_BOT_TOKEN) throw new Error("TELEGRAM_BOT_TOKEN is not set");
  return new Api(env.TELEGRAM_BOT_TOKEN, {
    apiRoot: env.TELEGRAM_API_URL.replace(/\/+$/, ""),
    // Node's own fetch, not grammY's node-fetch fallback.
    fetch: globalThis.fetch as never,
    timeoutSeconds: 15,
  });
}
