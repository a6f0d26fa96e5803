// POST /api/channels/slack — the Slack app's request URL: the /agent slash command (form body) and
// the Events API (JSON, url_verification included) for direct messages (docs/channels.md).
import { slackPlatform } from "@/lib/channels/slack/slack-platform";
import { sdkChannelRoute } from "@/lib/http/routes/sdk-channel-route";

export const runtime = "nodejs";
// The owner call runs after the answer to Slack, for up to the 30 s webhook timeout.
export const maxDuration = 60;

export const { POST, GET, PUT, PATCH, DELETE } = sdkChannelRoute(slackPlatform, ["POST"]);
