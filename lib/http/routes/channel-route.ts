import "server-only";
import type { ChatPlatform } from "@/lib/channels/chat-platform";
import { isChannelConfigured } from "@/lib/channels/configured-channels";
import { ApiError } from "@/lib/http/api-error";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";
import { readBodyBytes } from "@/lib/http/read-body";
import { route } from "@/lib/http/routes/route";

// Platform requests are small (a Telegram update, a Discord interaction, a Slack event); a chat
// message is at most a few thousand characters.
const MAX_BODY_BYTES = 256 * 1024;

type ChannelHandler = {
  // The platform's proof that it sent the request, checked on the raw bytes before any parsing.
  verify: (headers: Headers, body: Buffer, now: Date) => boolean;
  handle: (headers: Headers, body: Buffer) => Promise<Response>;
};

/**
 * A chat platform's webhook (docs/channels.md): 404 while the platform's settings are missing,
 * the raw body read once (capped), verified, then handled; nothing unverified reaches the
 * database or an owner. Platforms only POST; other methods get the API's JSON 405.
 */
export function channelRoute(platform: ChatPlatform, handler: ChannelHandler) {
  const POST = route({ auth: async () => undefined }, async ({ req }) => {
    if (!isChannelConfigured(platform)) throw new ApiError(404, `The ${platform} bot is not set up on this service.`);
    const body = await readBodyBytes(req, MAX_BODY_BYTES);
    if (!handler.verify(req.headers, body, new Date())) throw new ApiError(401, `This request is not signed by ${platform}.`);
    return handler.handle(req.headers, body);
  });
  const refuse = methodNotAllowed("POST");
  return { POST, GET: refuse, PUT: refuse, PATCH: refuse, DELETE: refuse };
}
