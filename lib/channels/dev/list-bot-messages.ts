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
    // Telegram's and Slack's text, Discord's content; typing actions and the like carry neither.
    const text = call.body.text ?? call.body.content;
    return call.platform === platform && typeof text === "string" ? [{ seq: call.seq, method: call.method, text }] : [];
  });
  return { messages, next: since + calls.length };
}
