import "server-only";
import { InteractionResponseType, InteractionType } from "discord-api-types/v10";
import { z } from "zod";
import { chatExtend } from "@/lib/channels/chat-extend";
import type { ChatUser } from "@/lib/channels/chat-platform";
import { chatStatus } from "@/lib/channels/chat-status";
import { claimDelivery } from "@/lib/channels/claim-delivery";
import { sendDiscordReply } from "@/lib/channels/discord/send-discord-reply";
import { relayChatMessage } from "@/lib/channels/relay-chat-message";
import { startChat } from "@/lib/channels/start-chat";
import { stopChat } from "@/lib/channels/stop-chat";
import { afterResponse } from "@/lib/http/after-response";
import { ApiError } from "@/lib/http/api-error";

const userSchema = z.object({ id: z.string().min(1), username: z.string().optional(), global_name: z.string().nullish() });
const interactionSchema = z.object({
  id: z.string().min(1),
  type: z.number().int(),
  token: z.string().optional(),
  data: z.object({ name: z.string(), options: z.array(z.object({ name: z.string(), value: z.unknown() })).optional() }).optional(),
  // In a server the person is the member's user; in a DM (or a user-installed app's context), the user.
  member: z.object({ user: userSchema }).optional(),
  user: userSchema.optional(),
});

const EPHEMERAL = 64;

/**
 * A Discord interaction, after its signature: PING is answered PONG; a slash command is claimed
 * by its id (a repeat is acknowledged and dropped), answered at once with "thinking…" visible to
 * the sender only, and its answer edited in after the response: start, chat (a message to the
 * agent through the one chat path), status, stop.
 */
export async function handleDiscordInteraction(body: Buffer): Promise<Response> {
  const parsed = interactionSchema.safeParse(parseJson(body));
  if (!parsed.success) throw new ApiError(400, "This is not a Discord interaction.");
  const interaction = parsed.data;
  if (interaction.type === InteractionType.Ping) return Response.json({ type: InteractionResponseType.Pong });
  const person = interaction.member?.user ?? interaction.user;
  if (interaction.type !== InteractionType.ApplicationCommand || !interaction.data || !interaction.token || !person) {
    throw new ApiError(400, "This bot answers its slash commands only.");
  }
  const deferred = Response.json({ type: InteractionResponseType.DeferredChannelMessageWithSource, data: { flags: EPHEMERAL } });
  if (!(await claimDelivery("Discord", interaction.id))) return deferred;
  const user: ChatUser = {
    platform: "Discord",
    id: person.id,
    chatId: null,
    label: `@${person.username ?? person.global_name ?? person.id}`,
  };
  const option = (name: string) => String(interaction.data?.options?.find((o) => o.name === name)?.value ?? "");
  const { name } = interaction.data;
  const token = interaction.token;
  void afterResponse("a Discord command", async () => {
    await sendDiscordReply(token, await answer(user, name, option));
  });
  return deferred;
}

async function answer(user: ChatUser, command: string, option: (name: string) => string): Promise<string> {
  switch (command) {
    case "start":
      return startChat(user, option("code"));
    case "chat":
      return (await relayChatMessage(user, option("message"))).text;
    case "status":
      return chatStatus(user);
    case "extend":
      return chatExtend(user);
    case "stop":
      return stopChat(user);
    default:
      return `Unknown command /${command}.`;
  }
}

function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString("utf8"));
  } catch {
    return null;
  }
}
