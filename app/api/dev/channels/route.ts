// /api/dev/channels — the /dev/channels page (development only). POST: its form, which sends the
// text as the given chat user to the real bot route, signed like the platform would, then back to
// the page. GET ?platform=…&since=…: what that platform's bot sent since then, which the page polls.
import { z } from "zod";
import { listBotMessages } from "@/lib/channels/dev/list-bot-messages";
import { sendAsChatUser } from "@/lib/channels/dev/send-as-chat-user";
import { ApiError } from "@/lib/http/api-error";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";
import { parseFormBody } from "@/lib/http/parse-form-body";
import { route } from "@/lib/http/routes/route";
import { NO_STORE } from "@/lib/http/routes/sign-in-route";

const platformSchema = z.enum(["Telegram", "Discord", "Slack", "WhatsApp", "Teams", "GoogleChat"]);

const formSchema = z.object({
  platform: platformSchema,
  user: z.string().regex(/^\d{1,15}$/, "a user is a number"),
  text: z.string().min(1, "type something").max(10_000),
});

const querySchema = z.object({
  platform: platformSchema,
  since: z.coerce.number().int().min(0).max(1_000_000_000).default(0),
});

export const POST = route({ auth: async () => undefined }, async ({ req }) => {
  const form = formSchema.safeParse(Object.fromEntries((await parseFormBody(req, 64 * 1024)) ?? []));
  if (!form.success) throw new ApiError(400, form.error.issues[0]?.message ?? "Fill in the form.");
  const { platform, user, text } = form.data;
  await sendAsChatUser(platform, user, text);
  return new Response(null, { status: 303, headers: { Location: `/dev/channels?platform=${platform}&user=${user}` } });
});

export const GET = route({ auth: async () => undefined }, async ({ req }) => {
  const query = querySchema.safeParse(Object.fromEntries(new URL(req.url).searchParams));
  if (!query.success)
    throw new ApiError(400, "Ask for ?platform=Telegram, Discord, Slack, WhatsApp, Teams or GoogleChat, and since=<a number>.");
  return Response.json(await listBotMessages(query.data.platform, query.data.since), { headers: NO_STORE });
});

export const PUT = methodNotAllowed("GET, POST");
export const PATCH = PUT;
export const DELETE = PUT;
