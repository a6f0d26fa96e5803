import "server-only";
import { createPostgresState } from "@chat-adapter/state-pg";
import { type Adapter, Chat, ConsoleLogger, type Message, type Thread } from "chat";
import { answerChatText } from "@/lib/channels/answer-chat-text";
import { channelName } from "@/lib/channels/channel-name";
import { claimDelivery } from "@/lib/channels/claim-delivery";
import { FULL_REPLY_POINTER, splitReply } from "@/lib/channels/reply-text";
import type { SdkPlatform } from "@/lib/channels/sdk-platform";
import { SDK_PLATFORMS } from "@/lib/channels/sdk-platforms";
import { databasePool } from "@/lib/db";

// A long reply goes out in at most this many messages; the rest is on the API.
const MAX_PARTS = 3;

let built: { key: string; bot: Promise<Chat> } | undefined;

/**
 * The one Chat SDK instance of this process: an adapter for each configured bot of
 * lib/channels/sdk-platforms.ts, its state in our PostgreSQL (the chat_state_* tables, through the
 * app's own pool). Rebuilt when a setting it was made from changes (tests, a dev server's reload).
 * Every message may run at once ("concurrent"): one in flight per binding is the rental logic's
 * rule (relayChatMessage), and each delivery is claimed once for good (claimDelivery).
 */
export function chatBot(): Promise<Chat> {
  const configured = SDK_PLATFORMS.filter((platform) => platform.configured());
  const options = configured.map((platform) => [platform, platform.adapterOptions()] as const);
  const key = JSON.stringify(options.map(([platform, values]) => [platform.adapterName, values]));
  if (built?.key !== key) {
    const bot = buildChat(options);
    built = { key, bot };
    bot.catch(() => {
      if (built?.bot === bot) built = undefined; // tried again on the next message
    });
  }
  return built.bot;
}

async function buildChat(options: ReadonlyArray<readonly [SdkPlatform, Record<string, string>]>): Promise<Chat> {
  const adapters: Record<string, Adapter> = {};
  for (const [platform, values] of options) adapters[platform.adapterName] = await platform.createAdapter(values);
  const bot = new Chat({
    userName: "agent-rental",
    adapters,
    state: createPostgresState({ client: databasePool(), autoCreateSchema: false }),
    concurrency: "concurrent",
    logger: new ConsoleLogger("warn"),
  });
  bot.onDirectMessage((thread, message) => answerMessage(platformOf(thread.adapter.name), thread, message));
  bot.onSlashCommand((event) => platformOf(event.adapter.name).slashCommand?.(event));
  return bot;
}

/** Posts `text` to a chat of an SDK platform (a reply, a notice), in parts when long, as written. */
export async function postToChat(platform: SdkPlatform, threadId: string, text: string): Promise<void> {
  const bot = await chatBot();
  await bot.initialize();
  const adapter = bot.getAdapter(platform.adapterName);
  for (const part of splitReply(text, platform.messageLimit, MAX_PARTS, FULL_REPLY_POINTER)) {
    await adapter.postMessage(threadId, { raw: part });
  }
}

// One message from a chat user: claimed by its delivery key for good (a redelivery, even days
// later, is dropped), answered, the answer posted as plain text (nothing in a reply is interpreted).
async function answerMessage(platform: SdkPlatform, thread: Thread, message: Message): Promise<void> {
  const delivery = platform.delivery ? platform.delivery(message) : { key: message.id, text: message.text };
  if (message.author.isBot === true || !delivery || !(await claimDelivery(platform.name, delivery.key))) return;
  const user = platform.chatUser?.(message) ?? {
    platform: platform.name,
    id: message.author.userId,
    chatId: message.threadId,
    label: message.author.fullName || `a ${channelName(platform.name)} user`,
  };
  let typing: ReturnType<typeof setInterval> | undefined;
  const type = () => void thread.startTyping().catch(() => {});
  const thinking = () => {
    type();
    if (platform.typingEveryMs) typing = setInterval(type, platform.typingEveryMs);
  };
  let reply: string;
  try {
    reply = await answerChatText(user, delivery.text, thinking);
  } finally {
    clearInterval(typing);
  }
  await postToChat(platform, thread.id, reply);
}

function platformOf(adapterName: string): SdkPlatform {
  const platform = SDK_PLATFORMS.find((candidate) => candidate.adapterName === adapterName);
  if (!platform) throw new Error(`no platform for the Chat SDK adapter "${adapterName}"`);
  return platform;
}
