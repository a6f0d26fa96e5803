import "server-only";
import { slackAppUrl } from "@/lib/channels/checkout-instructions";
import { slackCommandRequest, slackMessageRequest } from "@/lib/channels/dev/slack-requests";
import type { SdkPlatform } from "@/lib/channels/sdk-platform";
import type { Delivered } from "@/lib/channels/slack/slack-bot";
import { appUrl, env } from "@/lib/env";

/**
 * The Slack app (/api/channels/slack) through `@chat-adapter/slack`: the v0 signature on every
 * request, /agent commands (answered in the app's DM) and direct messages to the app, per
 * workspace. A chat user is "<team>:<user>", their chat the DM channel with the app.
 */
export const slackPlatform: SdkPlatform = {
  name: "Slack",
  adapterName: "slack",
  configured: () => Boolean(env.SLACK_SIGNING_SECRET && (env.SLACK_BOT_TOKEN || (env.SLACK_CLIENT_ID && env.SLACK_CLIENT_SECRET))),
  apiUrl: () => env.SLACK_API_URL,
  checkoutLinks: () => ({
    // "Add to Slack" only where renters' workspaces can install the app (not a single workspace).
    slackInstallUrl: env.SLACK_CLIENT_ID ? `${appUrl().replace(/\/+$/, "")}/api/channels/slack/install` : null,
    slackAppUrl: env.SLACK_APP_ID ? slackAppUrl(env.SLACK_APP_ID) : null,
  }),
  adapterOptions: () => ({
    signingSecret: env.SLACK_SIGNING_SECRET ?? "",
    botToken: env.SLACK_BOT_TOKEN ?? "",
    apiUrl: env.SLACK_API_URL,
  }),
  createAdapter: async (options) => (await import("@/lib/channels/slack/slack-bot")).slackBot(options),
  chatUser: (message) => {
    const { user, channel, envelope } = message.raw as Delivered;
    return { platform: "Slack", id: `${envelope.teamId}:${user}`, chatId: channel ?? null, label: `Slack user ${user}` };
  },
  // A person's own new message in a DM with the app, by the event_id Slack redelivers it under;
  // bots' messages and edits (a subtype) are not read.
  delivery: (message) => {
    const raw = message.raw as Delivered;
    const read = raw.channel_type === "im" && raw.user && !raw.bot_id && !raw.subtype && raw.envelope.eventId && raw.envelope.teamId;
    return read && typeof raw.text === "string" ? { key: raw.envelope.eventId!, text: raw.text } : null;
  },
  // Slack takes up to 40,000 characters a message but shows long ones folded; parts of 3,500 read well.
  messageLimit: 3_500,
  slashCommand: async (event) => (await import("@/lib/channels/slack/answer-slack-command")).answerSlackCommand(event),
  // Slack reads the answer: url_verification's challenge, the command's "On it".
  answerBody: true,
  howToChat: { help: "any other message goes to the agent", afterStart: "send a direct message to this app" },
  notify: async (target, text) => (await import("@/lib/channels/slack/notify-slack-user")).notifySlackUser(target, text),
  simulatedRequest(base, userId, text) {
    const who = { team: "TDEV", user: `U${userId}` };
    const secret = env.SLACK_SIGNING_SECRET ?? "";
    return text.startsWith("/agent")
      ? slackCommandRequest(`${base}/slack`, secret, who, text.replace(/^\/agent\s*/, ""))
      : slackMessageRequest(`${base}/slack`, secret, who, text);
  },
};
