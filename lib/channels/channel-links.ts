import "server-only";
import { isChannelConfigured } from "@/lib/channels/configured-channels";
import type { ChannelLinks } from "@/lib/checkout/activation";
import { appUrl, env } from "@/lib/env";

/** What the checkout links to for each bot this deployment runs (public values only). */
export function channelLinks(): ChannelLinks {
  return {
    telegramBot: isChannelConfigured("Telegram") ? (env.TELEGRAM_BOT_USERNAME ?? null) : null,
    discordApplicationId: isChannelConfigured("Discord") ? (env.DISCORD_APPLICATION_ID ?? null) : null,
    // "Add to Slack" only where renters' workspaces can install the app (not a single workspace).
    slackInstallUrl:
      isChannelConfigured("Slack") && env.SLACK_CLIENT_ID ? `${appUrl().replace(/\/+$/, "")}/api/channels/slack/install` : null,
  };
}
