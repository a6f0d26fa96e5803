// POST /api/channels/slack — the Slack app's request URL: the /agent slash command (form body) and
// the Events API (JSON, url_verification included) for direct messages (docs/channels.md).
import { handleSlackRequest } from "@/lib/channels/slack/handle-slack-request";
import { verifySlackRequest } from "@/lib/channels/slack/verify-slack-request";
import { channelRoute } from "@/lib/http/routes/channel-route";

export const runtime = "nodejs";
// The owner call runs after the answer to Slack, for up to the 30 s webhook timeout.
export const maxDuration = 60;

export const { POST, GET, PUT, PATCH, DELETE } = channelRoute("Slack", {
  verify: verifySlackRequest,
  handle: handleSlackRequest,
});
