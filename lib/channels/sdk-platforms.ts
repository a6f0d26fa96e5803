import "server-only";
import { discordPlatform } from "@/lib/channels/discord/discord-platform";
import { googleChatPlatform } from "@/lib/channels/gchat/gchat-platform";
import type { SdkPlatform } from "@/lib/channels/sdk-platform";
import { slackPlatform } from "@/lib/channels/slack/slack-platform";
import { teamsPlatform } from "@/lib/channels/teams/teams-platform";
import { telegramPlatform } from "@/lib/channels/telegram/telegram-platform";
import { whatsappPlatform } from "@/lib/channels/whatsapp/whatsapp-platform";

/** The bots on Vercel's Chat SDK: one line each here, and the platform's own folder. */
export const SDK_PLATFORMS: readonly SdkPlatform[] = [
  telegramPlatform,
  discordPlatform,
  slackPlatform,
  whatsappPlatform,
  teamsPlatform,
  googleChatPlatform,
];
