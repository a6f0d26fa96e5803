// GET /api/channels/slack/oauth — Slack's redirect after "Add to Slack": stores the workspace's bot token (encrypted).
import { finishSlackInstall } from "@/lib/channels/slack/slack-install";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";
import { route } from "@/lib/http/routes/route";

export const GET = route({ auth: async () => undefined }, async ({ req }) => finishSlackInstall(req));

export const POST = methodNotAllowed("GET");
export const PUT = POST;
export const PATCH = POST;
export const DELETE = POST;
