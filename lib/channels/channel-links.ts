import "server-only";
import { BOT_PLATFORMS } from "@/lib/channels/bot-platforms";
import { CHAT_PLATFORMS, type ChatPlatform } from "@/lib/channels/chat-platform";
import { slackAppUrl } from "@/lib/channels/checkout-instructions";
import { isChannelConfigured } from "@/lib/channels/configured-channels";
import type { ChannelLinks } from "@/lib/checkout/activation";
import { appUrl, env } from "@/lib/env";

/** What the checkout links to for each bot this deployment runs (public values only). */
export function channelLinks(): ChannelLinks {
  const simulated = CHAT_PLATFORMS.filter((p) => isChannelConfigured(p) && isSimulated(p));
  const real = (platform: ChatPlatform) => isChannelConfigured(platform) && !simulated.includes(platform);
  return {
    telegramBot: real("Telegram") ? (env.TELEGRAM_BOT_USERNAME ?? null) : null,
    discordApplicationId: real("Discord") ? (env.DISCORD_APPLICATION_ID ?? null) : null,
    // "Add to Slack" only where renters' workspaces can install the app (not a single workspace).
    slackInstallUrl: real("Slack") && env.SLACK_CLIENT_ID ? `${appUrl().replace(/\/+$/, "")}/api/channels/slack/install` : null,
    slackAppUrl: real("Slack") && env.SLACK_APP_ID ? slackAppUrl(env.SLACK_APP_ID) : null,
    whatsappNumber: real("WhatsApp") ? (env.WHATSAPP_PHONE_NUMBER ?? null) : null,
    simulated,
  };
}

// A bot whose platform API is the local mock `npm run dev` runs (lib/env.ts DEV_PLATFORM_MOCK_URL)
// exists nowhere else: its made-up bot name or app id would lead to nobody, or to a stranger.
function isSimulated(platform: ChatPlatform): boolean {
  const mock = env.DEV_PLATFORM_MOCK_URL;
  if (!mock) return false;
  return BOT_PLATFORMS[platform].apiUrl().startsWith(mock);
}
