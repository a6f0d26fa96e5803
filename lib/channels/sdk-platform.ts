import type { Adapter, Message } from "chat";
import type { BotPlatform } from "@/lib/channels/bot-platform";
import type { ChatPlatform, ChatUser } from "@/lib/channels/chat-platform";

/**
 * A bot that runs on Vercel's Chat SDK (`chat`, lib/channels/chat-bot.ts): its official adapter
 * verifies and parses the platform's requests and sends the replies; the rental logic stays ours.
 * Notices go to the chat the person last wrote from (lib/channels/bot-platforms.ts).
 */
export type SdkPlatform = Omit<BotPlatform, "canNotify" | "notify"> & {
  name: ChatPlatform;
  /** The adapter's name: its key in the Chat instance and the route /api/channels/<name>. */
  adapterName: string;
  /** The adapter's options from this deployment's settings (compared to rebuild on a change). */
  adapterOptions(): Record<string, string>;
  createAdapter(options: Record<string, string>): Adapter;
  /** The person who wrote `message`, as the rental logic knows chat users. */
  chatUser(message: Message): ChatUser;
  /** The platform's longest message: a longer reply goes out in parts. */
  messageLimit: number;
};
