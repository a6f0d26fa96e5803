import "server-only";
import type { BotPlatform } from "@/lib/channels/bot-platform";
import type { ChatPlatform } from "@/lib/channels/chat-platform";
import type { SdkPlatform } from "@/lib/channels/sdk-platform";
import { SDK_PLATFORMS } from "@/lib/channels/sdk-platforms";

// A bot on the Chat SDK writes first to the chat the person last wrote from, unless it says how.
function fromSdk(platform: SdkPlatform): BotPlatform {
  return {
    canNotify: (target) => target.chatId !== null,
    // The Chat SDK is loaded by the first notice, not by every page that reads the registry.
    notify: async (target, text) => (await import("@/lib/channels/chat-bot")).postToChat(platform, target.chatId!, text),
    ...platform,
  };
}

/** Every bot the service can run, by platform: the core asks these and names no platform. */
export const BOT_PLATFORMS = Object.fromEntries(SDK_PLATFORMS.map((platform) => [platform.name, fromSdk(platform)])) as Record<
  ChatPlatform,
  BotPlatform
>;
