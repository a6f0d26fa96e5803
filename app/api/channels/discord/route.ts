// POST /api/channels/discord — the Discord application's Interactions Endpoint URL: PING, and the
// slash commands start, chat, status and stop (docs/channels.md).
import { handleDiscordInteraction } from "@/lib/channels/discord/handle-discord-interaction";
import { verifyDiscordRequest } from "@/lib/channels/discord/verify-discord-request";
import { channelRoute } from "@/lib/http/routes/channel-route";

export const runtime = "nodejs";
// The owner call runs after the deferred answer, for up to the 30 s webhook timeout.
export const maxDuration = 60;

export const { POST, GET, PUT, PATCH, DELETE } = channelRoute("Discord", {
  verify: verifyDiscordRequest,
  handle: (_headers, body) => handleDiscordInteraction(body),
});
