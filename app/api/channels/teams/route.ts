// POST /api/channels/teams — the Microsoft Teams bot's messaging endpoint (an Azure Bot): activities
// carry a Bot Framework token (RS256, for this app, naming the activity's serviceUrl). Personal
// chats only: "start <code>", "status", "extend", "stop", "help", and messages to the rented agent
// (docs/channels.md).

import { teamsPlatform } from "@/lib/channels/teams/teams-platform";
import { sdkChannelRoute } from "@/lib/http/routes/sdk-channel-route";

export const runtime = "nodejs";
// The owner call runs after the answer to the Bot Framework, for up to the webhook timeout.
export const maxDuration = 60;

export const { GET, POST, PUT, PATCH, DELETE } = sdkChannelRoute(teamsPlatform, ["POST"]);
