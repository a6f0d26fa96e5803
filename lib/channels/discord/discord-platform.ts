import "server-only";
import type { BotPlatform } from "@/lib/channels/bot-platform";
import { discordCommandRequest, discordPrivateKey } from "@/lib/channels/dev/discord-requests";
import { sendDiscordDm } from "@/lib/channels/discord/send-discord-reply";
import { env } from "@/lib/env";

/** The Discord app (/api/channels/discord): slash commands answered through their interaction. */
export const discordPlatform: BotPlatform = {
  configured: () => Boolean(env.DISCORD_APPLICATION_ID && env.DISCORD_PUBLIC_KEY && env.DISCORD_BOT_TOKEN),
  apiUrl: () => env.DISCORD_API_URL,
  howToChat: { help: "/chat message:<text> sends a message to the agent", afterStart: "use /chat message:<your message>" },
  // A DM is allowed only to users who share a server with the bot or installed the app.
  canNotify: () => true,
  notify: (target, text) => sendDiscordDm(target.id, text),
  simulatedRequest(base, userId, text) {
    // "/start <code>", "/chat <message>", "/status", "/stop"; plain text is a /chat message. The
    // option's name may be typed as Discord shows it ("/start code:…", as the pages print it).
    const [, command = "chat", typed = ""] = /^\/(\w+)\s*([\s\S]*)$/.exec(text) ?? [null, "chat", text];
    const rest = typed.replace(/^(code|message):\s*/, "");
    const options: Record<string, string> = command === "start" ? { code: rest } : command === "chat" ? { message: rest } : {};
    return discordCommandRequest(`${base}/discord`, discordPrivateKey(env.DEV_DISCORD_PRIVATE_KEY ?? ""), { id: userId }, command, options);
  },
};
