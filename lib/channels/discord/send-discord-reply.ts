import "server-only";
import { discordApi, NO_MENTIONS } from "@/lib/channels/discord/discord-api";
import { FULL_REPLY_POINTER, splitReply } from "@/lib/channels/reply-text";
import { env } from "@/lib/env";

// Discord's limit is 2,000 characters a message; a long reply goes out in at most 3.
const DISCORD_LIMIT = 2_000;
const MAX_PARTS = 3;
// Only the person who asked sees the bot's answers (a code or a reply never shows to a server).
const EPHEMERAL = 64;

/** Answers a deferred interaction: the first part edits the "thinking…" message, the rest follow up. */
export async function sendDiscordReply(interactionToken: string, text: string): Promise<void> {
  const hook = `/webhooks/${env.DISCORD_APPLICATION_ID}/${interactionToken}`;
  const [first, ...rest] = splitReply(text, DISCORD_LIMIT, MAX_PARTS, FULL_REPLY_POINTER);
  await discordApi("PATCH", `${hook}/messages/@original`, { content: first, allowed_mentions: NO_MENTIONS });
  for (const part of rest) await discordApi("POST", hook, { content: part, flags: EPHEMERAL, allowed_mentions: NO_MENTIONS });
}

/** A direct message from the bot to a user (the rental-end notice); Discord allows it only to users who share a server with the bot or installed it. */
export async function sendDiscordDm(userId: string, text: string): Promise<void> {
  const dm = (await discordApi("POST", "/users/@me/channels", { recipient_id: userId }, "bot")) as { id: string };
  await discordApi("POST", `/channels/${dm.id}/messages`, { content: text.slice(0, DISCORD_LIMIT), allowed_mentions: NO_MENTIONS }, "bot");
}
