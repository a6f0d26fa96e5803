import "server-only";
import { discordCommandRequest, discordPrivateKey } from "@/lib/channels/dev/discord-requests";
import { DISCORD_COMMANDS } from "@/lib/channels/discord/discord-commands";
import type { SdkPlatform } from "@/lib/channels/sdk-platform";
import { env } from "@/lib/env";

/**
 * The Discord app (/api/channels/discord), an Interactions Endpoint through `@chat-adapter/discord`
 * (no Gateway): signed slash commands, answered within their interaction, seen by the sender only.
 * A chat user is their Discord user id, with no chat of their own: notices go to their DM.
 */
export const discordPlatform: SdkPlatform = {
  name: "Discord",
  adapterName: "discord",
  configured: () => Boolean(env.DISCORD_APPLICATION_ID && env.DISCORD_PUBLIC_KEY && env.DISCORD_BOT_TOKEN),
  apiUrl: () => env.DISCORD_API_URL,
  checkoutLinks: () => ({ discordApplicationId: env.DISCORD_APPLICATION_ID ?? null }),
  adapterOptions: () => ({
    applicationId: env.DISCORD_APPLICATION_ID ?? "",
    botToken: env.DISCORD_BOT_TOKEN ?? "",
    // Read by the request check (verify-discord-request.ts); here so that a new key rebuilds the adapter.
    publicKey: env.DISCORD_PUBLIC_KEY ?? "",
    apiUrl: env.DISCORD_API_URL.replace(/\/+$/, ""),
  }),
  createAdapter: async (options) => (await import("@/lib/channels/discord/discord-bot")).discordBot(options),
  // Only slash commands reach the bot: no message is read.
  delivery: () => null,
  slashCommand: async (event) => (await import("@/lib/channels/discord/answer-discord-command")).answerDiscordCommand(event),
  // Discord reads the PONG and the deferred "thinking…" the adapter answers with.
  answerBody: true,
  messageLimit: 2_000,
  howToChat: { help: "/chat message:<text> sends a message to the agent", afterStart: "use /chat message:<your message>" },
  // A DM is allowed only to users who share a server with the bot or installed the app.
  canNotify: () => true,
  notify: async (target, text) => (await import("@/lib/channels/discord/send-discord-dm")).sendDiscordDm(target.id, text),
  simulatedRequest(base, userId, text) {
    // "/start <code>", "/chat <message>", "/status", "/stop"; plain text is a /chat message. The
    // option's name may be typed as Discord shows it ("/start code:…", as the pages print it).
    const [, command = "chat", typed = ""] = /^\/(\w+)\s*([\s\S]*)$/.exec(text) ?? [null, "chat", text];
    const rest = typed.replace(/^(code|message):\s*/, "");
    const options: Record<string, string> = command === "start" ? { code: rest } : command === "chat" ? { message: rest } : {};
    return discordCommandRequest(`${base}/discord`, discordPrivateKey(env.DEV_DISCORD_PRIVATE_KEY ?? ""), { id: userId }, command, options);
  },
};

/** The operator's setup: the slash commands, registered globally (PUT replaces the whole list). */
export async function registerDiscordCommands(): Promise<{ name: string }[]> {
  const { discordBot } = await import("@/lib/channels/discord/discord-bot");
  const bot = discordBot(discordPlatform.adapterOptions());
  return (await bot.call("PUT", `/applications/${env.DISCORD_APPLICATION_ID}/commands`, DISCORD_COMMANDS)) as { name: string }[];
}
