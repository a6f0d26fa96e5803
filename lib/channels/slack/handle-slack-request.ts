import "server-only";
import { z } from "zod";
import { chatExtend } from "@/lib/channels/chat-extend";
import { chatHelp } from "@/lib/channels/chat-help";
import type { ChatUser } from "@/lib/channels/chat-platform";
import { chatStatus } from "@/lib/channels/chat-status";
import { claimDelivery } from "@/lib/channels/claim-delivery";
import { relayChatMessage } from "@/lib/channels/relay-chat-message";
import { openSlackDm, sendSlackReply } from "@/lib/channels/slack/send-slack-reply";
import { startChat } from "@/lib/channels/start-chat";
import { stopChat } from "@/lib/channels/stop-chat";
import { formatCount } from "@/lib/format/number";
import { afterResponse } from "@/lib/http/after-response";
import { ApiError } from "@/lib/http/api-error";

// The API's limit on a message (lib/schemas/renter-api.ts).
const MESSAGE_MAX = 10_000;

const slashCommandSchema = z.object({
  command: z.string(),
  text: z.string().default(""),
  team_id: z.string().min(1),
  user_id: z.string().min(1),
  user_name: z.string().optional(),
  // Unique to each invocation of a command: what a delivery sent again is recognised by.
  trigger_id: z.string().min(1),
});

const eventSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("url_verification"), challenge: z.string() }),
  z.object({
    type: z.literal("event_callback"),
    team_id: z.string().min(1),
    event_id: z.string().min(1),
    event: z.object({
      type: z.string(),
      channel_type: z.string().optional(),
      channel: z.string().optional(),
      user: z.string().optional(),
      text: z.string().optional(),
      bot_id: z.string().optional(),
      subtype: z.string().optional(),
    }),
  }),
]);

/**
 * A Slack request, after its signature: `/agent …` (a form body) is claimed by its trigger_id,
 * answered at once and its result sent as a direct message from the app; Events API deliveries
 * (JSON) are claimed by their event_id, and a direct message to the app goes to the agent. So a
 * command or an event delivered twice runs once. Bots' messages and edits are ignored.
 */
export async function handleSlackRequest(headers: Headers, body: Buffer): Promise<Response> {
  const text = body.toString("utf8");
  if ((headers.get("content-type") ?? "").includes("application/x-www-form-urlencoded")) {
    return slashCommand(Object.fromEntries(new URLSearchParams(text)));
  }
  const parsed = eventSchema.safeParse(parseJson(text));
  if (!parsed.success) throw new ApiError(400, "This is not a Slack event or command.");
  const payload = parsed.data;
  if (payload.type === "url_verification") return Response.json({ challenge: payload.challenge });
  if (!(await claimDelivery("Slack", payload.event_id))) return new Response(null, { status: 200 });
  const { event } = payload;
  const isDirectMessage = event.type === "message" && event.channel_type === "im" && !event.bot_id && !event.subtype;
  if (!isDirectMessage || !event.user || !event.channel || event.text === undefined) return new Response(null, { status: 200 });
  const user: ChatUser = {
    platform: "Slack",
    id: `${payload.team_id}:${event.user}`,
    chatId: event.channel,
    label: `Slack user ${event.user}`,
  };
  const channel = event.channel;
  const message = event.text;
  void afterResponse("a Slack message", async () => {
    if (message.length > MESSAGE_MAX) {
      return sendSlackReply(
        payload.team_id,
        channel,
        `That message is longer than ${formatCount(MESSAGE_MAX)} characters; send it in parts.`,
      );
    }
    await sendSlackReply(payload.team_id, channel, (await relayChatMessage(user, message)).text);
  });
  return new Response(null, { status: 200 });
}

async function slashCommand(fields: Record<string, string>): Promise<Response> {
  const parsed = slashCommandSchema.safeParse(fields);
  if (!parsed.success) throw new ApiError(400, "This is not a Slack command.");
  const { text, team_id: teamId, user_id: userId, user_name: userName, trigger_id: triggerId } = parsed.data;
  // Slack does not retry commands, but a signed one can be sent again within its 5 minutes; the
  // claim outlives that window (the chat sweep forgets claims after a day). Prefixed: the event
  // ids share the platform's key space.
  if (!(await claimDelivery("Slack", `trigger:${triggerId}`))) return new Response(null, { status: 200 });
  const [word = "", ...rest] = text.trim().split(/\s+/);
  void afterResponse("a Slack command", async () => {
    const dm = await openSlackDm(teamId, userId);
    const user: ChatUser = {
      platform: "Slack",
      id: `${teamId}:${userId}`,
      chatId: dm,
      label: userName ? `@${userName}` : `Slack user ${userId}`,
    };
    await sendSlackReply(teamId, dm, await answer(user, word.toLowerCase(), rest.join(" ")));
  });
  // Slack shows this to the person alone, at once; the answer follows in the app's DM.
  return Response.json({ response_type: "ephemeral", text: "On it: the answer arrives in your direct messages with this app." });
}

async function answer(user: ChatUser, word: string, argument: string): Promise<string> {
  switch (word) {
    case "start":
      return startChat(user, argument);
    case "status":
      return chatStatus(user);
    case "extend":
      return chatExtend(user);
    case "stop":
      return stopChat(user);
    case "":
    case "help":
      return chatHelp("Slack");
    default:
      return `Unknown command "${word}".\n\n${chatHelp("Slack")}`;
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
