import "server-only";
import { BOT_PLATFORMS } from "@/lib/channels/bot-platforms";
import { CHAT_PLATFORMS, type ChatPlatform } from "@/lib/channels/chat-platform";
import { isChannelConfigured } from "@/lib/channels/configured-channels";
import type { ChannelLinks } from "@/lib/checkout/activation";
import { env } from "@/lib/env";

/** What the checkout links to for each bot this deployment runs (public values only). */
export function channelLinks(): ChannelLinks {
  const simulated = CHAT_PLATFORMS.filter((p) => isChannelConfigured(p) && isSimulated(p));
  const links: ChannelLinks = {
    telegramBot: null,
    discordApplicationId: null,
    slackInstallUrl: null,
    slackAppUrl: null,
    whatsappNumber: null,
    simulated,
  };
  for (const platform of CHAT_PLATFORMS) {
    if (isChannelConfigured(platform) && !simulated.includes(platform)) Object.assign(links, BOT_PLATFORMS[platform].checkoutLinks?.());
  }
  return links;
}

// A bot whose platform API is the local mock `npm run dev` runs (lib/env.ts DEV_PLATFORM_MOCK_URL)
// exists nowhere else: its made-up bot name or app id would lead to nobody, or to a stranger.
function isSimulated(platform: ChatPlatform): boolean {
  const mock = env.DEV_PLATFORM_MOCK_URL;
  if (!mock) return false;
  return BOT_PLATFORMS[platform].apiUrl().startsWith(mock);
}
