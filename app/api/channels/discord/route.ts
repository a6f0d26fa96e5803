// POST /api/channels/discord — the Discord application's Interactions Endpoint URL: PING, and the
// slash commands start, chat, status, extend and stop (docs/channels.md).
import { discordPlatform } from "@/lib/channels/discord/discord-platform";
import { sdkChannelRoute } from "@/lib/http/routes/sdk-channel-route";

export const runtime = "nodejs";
// The owner call runs after the deferred answer, for up to the 30 s webhook timeout.
export const maxDuration = 60;

export const { POST, GET, PUT, PATCH, DELETE } = sdkChannelRoute(discordPlatform, ["POST"]);
