import "server-only";
import { z } from "zod";
import type { ChatPlatform } from "@/lib/channels/chat-platform";
import { env } from "@/lib/env";
import { ApiError } from "@/lib/http/api-error";

/** A message a bot sent, as the platform mock recorded it; `seq` is its place among all the mock's calls. */
export type BotMessage = { seq: number; method: string; text: string };

// The mock's record (scripts/chat-platform-mock.ts); only what the page shows is read.
const callsSchema = z.array(
  z.object({ seq: z.number().int(), platform: z.string(), method: z.string(), body: z.record(z.string(), z.unknown()) }),
);

/**
 * What the bot of `platform` sent, from the mock's `since`-th call on (oldest first), and where
 * the next look starts. Development only: the /dev/channels page and its poll.
 */
export async function listBotMessages(platform: ChatPlatform, since = 0): Promise<{ messages: BotMessage[]; next: number }> {
  if (!env.DEV_PLATFORM_MOCK_URL) throw new ApiError(404, "The chat platform mock runs only under npm run dev.");
  const res = await fetch(`${env.DEV_PLATFORM_MOCK_URL}/_calls?since=${since}`, { cache: "no-store", signal: AbortSignal.timeout(5_000) });
  if (!res.ok) throw new ApiError(502, `The chat platform mock answered HTTP ${res.status}.`);
  const calls = callsSchema.parse(await res.json());
  const messages = calls.flatMap((call) => {
    const text = messageText(call.body);
    return call.platform === platform && text !== null ? [{ seq: call.seq, method: call.method, text }] : [];
  });
  return { messages, next: since + calls.length };
}

// Telegram's and Slack's `text`, Discord's `content`, WhatsApp's `text.body` (a Cloud API text
// message); typing actions, read receipts and the like carry none of them.
function messageText(body: Record<string, unknown>): string | null {
  const text = body.text ?? body.content;
  if (typeof text === "string") return text;
  if (text && typeof text === "object" && typeof (text as { body?: unknown }).body === "string") return (text as { body: string }).body;
  return null;
}
