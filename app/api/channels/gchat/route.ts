// POST /api/channels/gchat — the Google Chat app's HTTP endpoint: events carry a token Google Chat
// signs for the Cloud project's number. Direct messages only: "start <code>", "status", "extend",
// "stop", "help", and messages to the rented agent (docs/channels.md).

import { googleChatPlatform } from "@/lib/channels/gchat/gchat-platform";
import { sdkChannelRoute } from "@/lib/http/routes/sdk-channel-route";

export const runtime = "nodejs";
// The owner call runs after the answer to Google Chat, for up to the webhook timeout.
export const maxDuration = 60;

export const { GET, POST, PUT, PATCH, DELETE } = sdkChannelRoute(googleChatPlatform, ["POST"]);
