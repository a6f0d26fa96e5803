import "server-only";
import type { BotPlatform } from "@/lib/channels/bot-platform";
import { slackCommandRequest, slackMessageRequest } from "@/lib/channels/dev/slack-requests";
import { sendSlackReply } from "@/lib/channels/slack/send-slack-reply";
import { env } from "@/lib/env";

/** The Slack app (/api/channels/slack): /agent commands and direct messages, per workspace. */
export const slackPlatform: BotPlatform = {
  configured: () => Boolean(env.SLACK_SIGNING_SECRET && (env.SLACK_BOT_TOKEN || (env.SLACK_CLIENT_ID && env.SLACK_CLIENT_SECRET))),
  apiUrl: () => env.SLACK_API_URL,
  howToChat: { help: "any other message goes to the agent", afterStart: "send a direct message to this app" },
  // The DM channel with the app, known once they wrote to it. A Slack user is "<team>:<user>".
  canNotify: (target) => target.chatId !== null,
  notify: (target, text) => sendSlackReply(target.id.split(":")[0], target.chatId!, text),
  simulatedRequest(base, userId, text) {
    const who = { team: "TDEV", user: `U${userId}` };
    const secret = env.SLACK_SIGNING_SECRET ?? "";
    return text.startsWith("/agent")
      ? slackCommandRequest(`${base}/slack`, secret, who, text.replace(/^\/agent\s*/, ""))
      : slackMessageRequest(`${base}/slack`, secret, who, text);
  },
};
