import "server-only";
import { BOT_PLATFORMS } from "@/lib/channels/bot-platforms";
import type { ChatPlatform } from "@/lib/channels/chat-platform";
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
  return BOT_PLATFORMS[platform].simulatedRequest(base, userId, text);
}
