import "server-only";
import { BOT_PLATFORMS } from "@/lib/channels/bot-platforms";
import { CHAT_PLATFORMS, type ChatPlatform } from "@/lib/channels/chat-platform";
import type { CheckoutChannel } from "@/lib/checkout/activation";

// Which bots this deployment runs: a platform counts only with every setting its route needs to
// verify a request and answer it (docs/channels.md).
export function isChannelConfigured(platform: ChatPlatform): boolean {
  return BOT_PLATFORMS[platform].configured();
}

/** The channels a renter can use on this deployment: the API always, each bot when configured. */
export function availableChannels(): CheckoutChannel[] {
  return ["API", ...CHAT_PLATFORMS.filter(isChannelConfigured)];
}
