import type { ChatTarget } from "@/lib/channels/chat-platform";
import type { ChannelLinks } from "@/lib/checkout/activation";

/**
 * One chat platform's bot, as the core sees it (lib/channels/bot-platforms.ts): everything the
 * rental logic needs from a platform, so that nothing outside the platform's own folder names it.
 * Its command words live beside it in lib/channels/bot-commands.ts (the pages show them too).
 */
export type BotPlatform = {
  /** Every setting its route needs to verify a request and answer it (docs/channels.md). */
  configured(): boolean;
  /** The platform API's base URL setting: a bot whose API is the dev mock exists nowhere else. */
  apiUrl(): string;
  /** Where the checkout sends renters to find the bot, from this deployment's settings (public values only). */
  checkoutLinks?(): Partial<Omit<ChannelLinks, "simulated">>;
  /** How a message reaches the agent: a line of the help, and the words after a start. */
  howToChat: { help: string; afterStart: string };
  /** Whether the service can write to them first: some platforms need the chat they wrote from. */
  canNotify(target: ChatTarget): boolean;
  /** Sends a notice now; throws what the platform answered when it did not take it. */
  notify(target: ChatTarget, text: string): Promise<void>;
  /**
   * The /dev/channels simulator: the request the platform sends to this service's bot route
   * (under `base`, ".../api/channels") when chat user `userId` types `text`, signed as it signs.
   */
  simulatedRequest(base: string, userId: string, text: string): Request;
};

/** How a message reaches the agent where any text that is not a command does (most platforms). */
export const ANY_MESSAGE_CHATS: BotPlatform["howToChat"] = {
  help: "any other message goes to the agent",
  afterStart: "just send a message here",
};
