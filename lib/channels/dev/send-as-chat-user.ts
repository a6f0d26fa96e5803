import "server-only";
import type { ChatPlatform } from "@/lib/channels/chat-platform";
import { discordCommandRequest, discordPrivateKey } from "@/lib/channels/dev/discord-requests";
import { slackCommandRequest, slackMessageRequest } from "@/lib/channels/dev/slack-requests";
import { telegramMessageRequest } from "@/lib/channels/dev/telegram-requests";
import { env } from "@/lib/env";
import { ApiError } from "@/lib/http/api-error";

/**
 * The /dev/channels page's "send as": what a person types on a platform, turned into the request
 * that platform would send, signed with this development server's settings, and sent to the real
 * route of this server. Development only: it needs the platform mock `npm run dev` starts.
 */
export async function sendAsChatUser(platform: ChatPlatform, userId: string, text: string): Promise<void> {
  if (!env.DEV_PLATFORM_MOCK_URL) throw new ApiError(404, "The chat platform mock runs only under npm run dev.");
  const base = `http://127.0.0.1:${env.PORT}/api/channels`;
  const res = await fetch(chatUserRequest(platform, base, userId, text.trim()));
  if (!res.ok) throw new ApiError(502, `The ${platform} route answered HTTP ${res.status}: ${(await res.text()).slice(0, 200)}`);
}

/** The request `platform` sends to this service's bot route (under `base`) when user `userId` types `text`. */
export function chatUserRequest(platform: ChatPlatform, base: string, userId: string, text: string): Request {
  switch (platform) {
    case "Telegram":
      return telegramMessageRequest(
        `${base}/telegram`,
        env.TELEGRAM_WEBHOOK_SECRET ?? "",
        { id: Number(userId), username: `dev${userId}` },
        text,
      );
    case "Slack": {
      const who = { team: "TDEV", user: `U${userId}` };
      const url = `${base}/slack`;
      const secret = env.SLACK_SIGNING_SECRET ?? "";
      return text.startsWith("/agent")
        ? slackCommandRequest(url, secret, who, text.replace(/^\/agent\s*/, ""))
        : slackMessageRequest(url, secret, who, text);
    }
    case "Discord": {
      // "/start <code>", "/chat <message>", "/status", "/stop"; plain text is a /chat message. The
      // option's name may be typed as Discord shows it ("/start code:…", as the pages print it).
      const [, command = "chat", typed = ""] = /^\/(\w+)\s*([\s\S]*)$/.exec(text) ?? [null, "chat", text];
      const rest = typed.replace(/^(code|message):\s*/, "");
      const options: Record<string, string> = command === "start" ? { code: rest } : command === "chat" ? { message: rest } : {};
      return discordCommandRequest(
        `${base}/discord`,
        discordPrivateKey(env.DEV_DISCORD_PRIVATE_KEY ?? ""),
        { id: userId },
        command,
        options,
      );
    }
  }
}
