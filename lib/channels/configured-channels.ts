import "server-only";
import type { ChatPlatform } from "@/lib/channels/chat-platform";
import type { CheckoutChannel } from "@/lib/checkout/activation";
import { env } from "@/lib/env";

// Which bots this deployment runs: a platform counts only with every setting its route needs to
// verify a request and answer it (docs/channels.md).
export function isChannelConfigured(platform: ChatPlatform): boolean {
  switch (platform) {
    case "Telegram":
      return Boolean(env.TELEGRAM_BOT_TOKEN && env.TELEGRAM_WEBHOOK_SECRET && env.TELEGRAM_BOT_USERNAME);
    case "Discord":
      return Boolean(env.DISCORD_APPLICATION_ID && env.DISCORD_PUBLIC_KEY && env.DISCORD_BOT_TOKEN);
    case "Slack":
      return Boolean(env.SLACK_SIGNING_SECRET && (env.SLACK_BOT_TOKEN || (env.SLACK_CLIENT_ID && env.SLACK_CLIENT_SECRET)));
  }
}

/** The channels a renter can use on this deployment: the API always, each bot when configured. */
export function availableChannels(): CheckoutChannel[] {
  return ["API", ...(["Telegram", "Discord", "Slack"] as const).filter(isChannelConfigured)];
}
