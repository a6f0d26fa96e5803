// GET /api/channels/slack/install — "Add to Slack": to Slack's consent page for a renter's workspace.
import { startSlackInstall } from "@/lib/channels/slack/slack-install";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";
import { route } from "@/lib/http/routes/route";

export const GET = route({ auth: async () => undefined }, async () => startSlackInstall());

export const POST = methodNotAllowed("GET");
export const PUT = POST;
export const PATCH = POST;
export const DELETE = POST;
