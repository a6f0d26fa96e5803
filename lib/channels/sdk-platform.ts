import type { Adapter, Message, SlashCommandEvent } from "chat";
import type { BotPlatform } from "@/lib/channels/bot-platform";
import type { ChatPlatform, ChatUser } from "@/lib/channels/chat-platform";

/**
 * A bot that runs on Vercel's Chat SDK (`chat`, lib/channels/chat-bot.ts): its official adapter
 * verifies and parses the platform's requests and sends the replies; the rental logic stays ours.
 * Notices go to the chat the person last wrote from, unless it says how (`canNotify`, `notify`;
 * lib/channels/bot-platforms.ts).
 */
export type SdkPlatform = Omit<BotPlatform, "canNotify" | "notify"> &
  Partial<Pick<BotPlatform, "canNotify" | "notify">> & {
    name: ChatPlatform;
    /** The adapter's name: its key in the Chat instance and the route /api/channels/<name>. */
    adapterName: string;
    /** The adapter's options from this deployment's settings (compared to rebuild on a change). */
    adapterOptions(): Record<string, string>;
    /**
     * Its adapter, from `adapterOptions()`. The adapter's package is imported here, when the first
     * message or notice needs it: pages and routes that only ask whether a bot is configured never
     * load the platforms' SDKs.
     */
    createAdapter(options: Record<string, string>): Promise<Adapter>;
    /**
     * The person who wrote `message`, as the rental logic knows chat users. Without it: the
     * adapter's author id, the message's thread as the chat, the author's name as the label.
     */
    chatUser?(message: Message): ChatUser;
    /**
     * What `message` delivers to the bot: the key its platform redelivers it under (claimed once,
     * lib/channels/claim-delivery.ts) and the text as typed; null for anything the bot does not read.
     * Without it: the message's id and text.
     */
    delivery?(message: Message): { key: string; text: string } | null;
    /** The platform's longest message: a longer reply goes out in parts. */
    messageLimit: number;
    /**
     * Its slash commands, where the platform has them (Discord's, Slack's /agent): claimed, answered
     * by the rental logic and replied to where the platform's commands are answered.
     */
    slashCommand?(event: SlashCommandEvent): Promise<void>;
    /**
     * Whether the platform reads the adapter's answer to an event (Slack's challenge, a Discord
     * interaction's response): passed on as it is. Otherwise the answer is its status alone.
     */
    answerBody?: boolean;
    /** Where "typing…" fades on its own (Telegram's after 5 s): sent again this often while the agent thinks. */
    typingEveryMs?: number;
  };
