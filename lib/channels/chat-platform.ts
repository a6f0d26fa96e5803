import type { Channel } from "@/lib/generated/prisma/enums";

/**
 * The chat platforms the service runs a bot on (every checkout channel but the API; A2A is an
 * access protocol, never bought at checkout, and has no bot).
 */
export type ChatPlatform = Exclude<Channel, "API" | "A2A">;

export const CHAT_PLATFORMS: readonly ChatPlatform[] = ["Telegram", "Discord", "Slack", "WhatsApp", "Teams", "GoogleChat"];

/**
 * A person on a chat platform, as a bot request names them: `id` is the platform's user id
 * (Slack: "<team id>:<user id>", as user ids are per workspace); `chatId` is where the bot
 * answers them (a Telegram chat, a Slack DM channel; for Discord, null: replies go to the
 * interaction); `label` is a name to show on the rental's page.
 */
export type ChatUser = { platform: ChatPlatform; id: string; chatId: string | null; label: string };

/** Where the service writes to a chat user outside any request of theirs (a queued notice). */
export type ChatTarget = { platform: ChatPlatform; id: string; chatId: string | null };
