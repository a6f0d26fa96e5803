import "server-only";
import { z } from "zod";
import { chatExtend } from "@/lib/channels/chat-extend";
import { chatHelp } from "@/lib/channels/chat-help";
import type { ChatUser } from "@/lib/channels/chat-platform";
import { chatStatus } from "@/lib/channels/chat-status";
import { claimDelivery } from "@/lib/channels/claim-delivery";
import { relayChatMessage } from "@/lib/channels/relay-chat-message";
import { startChat } from "@/lib/channels/start-chat";
import { stopChat } from "@/lib/channels/stop-chat";
import { sendTelegramReply } from "@/lib/channels/telegram/send-telegram-reply";
import { telegramApi } from "@/lib/channels/telegram/telegram-api";
import { formatCount } from "@/lib/format/number";
import { afterResponse } from "@/lib/http/after-response";
import { ApiError } from "@/lib/http/api-error";

// Telegram's "typing…" shows for 5 seconds; it is sent again this often while the agent thinks.
const TYPING_EVERY_MS = 4_000;
// The API's limit on a message (lib/schemas/renter-api.ts).
const MESSAGE_MAX = 10_000;

// The fields of an update the bot reads (the Bot API's Update and Message); the rest is ignored.
const updateSchema = z.object({
  update_id: z.number().int(),
  message: z
    .object({
      from: z
        .object({
          id: z.number().int(),
          is_bot: z.boolean().optional(),
          username: z.string().optional(),
          first_name: z.string().optional(),
        })
        .optional(),
      chat: z.object({ id: z.number().int(), type: z.string() }),
      text: z.string().optional(),
    })
    .optional(),
});

/**
 * One Telegram update: claimed by its update_id (a redelivery is acknowledged and dropped), then
 * answered after the 200 — commands at once, a message to the agent with "typing…" while it
 * waits. Only text in private chats counts; everything else is acknowledged and ignored.
 */
export async function handleTelegramUpdate(body: Buffer): Promise<Response> {
  const parsed = updateSchema.safeParse(parseJson(body));
  if (!parsed.success) throw new ApiError(400, "This is not a Telegram update.");
  const { update_id: updateId, message } = parsed.data;
  if (!(await claimDelivery("Telegram", String(updateId)))) return new Response(null, { status: 200 });
  if (!message?.from || message.from.is_bot || message.chat.type !== "private" || message.text === undefined) {
    return new Response(null, { status: 200 });
  }
  const chatId = String(message.chat.id);
  const user: ChatUser = {
    platform: "Telegram",
    id: String(message.from.id),
    chatId,
    label: message.from.username ? `@${message.from.username}` : (message.from.first_name ?? `user ${message.from.id}`),
  };
  const text = message.text;
  void afterResponse("a Telegram update", async () => {
    const command = /^\/(\w+)(?:@\w+)?(?:\s+([\s\S]*))?$/.exec(text.trim());
    if (command) return sendTelegramReply(chatId, await answerCommand(user, command[1].toLowerCase(), command[2] ?? ""));
    if (text.length > MESSAGE_MAX)
      return sendTelegramReply(chatId, `That message is longer than ${formatCount(MESSAGE_MAX)} characters; send it in parts.`);
    await sendTelegramReply(chatId, (await withTyping(chatId, () => relayChatMessage(user, text))).text);
  });
  return new Response(null, { status: 200 });
}

async function answerCommand(user: ChatUser, command: string, argument: string): Promise<string> {
  switch (command) {
    case "start":
      // A bare /start is how the deep link opens a chat without a code, and how people greet a bot.
      return argument.trim() ? startChat(user, argument) : chatHelp("Telegram");
    case "status":
      return chatStatus(user);
    case "extend":
      return chatExtend(user);
    case "stop":
      return stopChat(user);
    case "help":
      return chatHelp("Telegram");
    default:
      return `Unknown command /${command}.\n\n${chatHelp("Telegram")}`;
  }
}

async function withTyping<T>(chatId: string, work: () => Promise<T>): Promise<T> {
  const api = telegramApi();
  const typing = () => api.sendChatAction(chatId, "typing").catch(() => {});
  void typing();
  const timer = setInterval(typing, TYPING_EVERY_MS);
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}

function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString("utf8"));
  } catch {
    return null;
  }
}
