import "server-only";
import { env } from "@/lib/env";

/**
 * One call to Discord's REST API at DISCORD_API_URL. Interaction webhooks (replies) are
 * authenticated by their token in the path; everything else by the bot token.
 */
export async function discordApi(method: string, path: string, body: unknown, auth: "bot" | "none" = "none"): Promise<unknown> {
  const headers: Record<string, string> = {
    "Content-Type": "application/json",
    "User-Agent": "AgentRentalService (https://github.com, 1.0)",
  };
  if (auth === "bot") headers.Authorization = `Bot ${env.DISCORD_BOT_TOKEN}`;
  const res = await fetch(`${env.DISCORD_API_URL.replace(/\/+$/, "")}${path}`, {
    method,
    headers,
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(15_000),
  });
  if (!res.ok)
    throw new Error(`Discord answered ${method} ${path.replace(/\/webhooks\/[^/]+\/[^/]+/, "/webhooks/…")} with HTTP ${res.status}`);
  return res.status === 204 ? null : res.json();
}

// Nothing a reply says pings anyone: no @everyone, @here, users or roles.
export const NO_MENTIONS = { parse: [] as string[] };
