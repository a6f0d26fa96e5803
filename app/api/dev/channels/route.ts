// POST /api/dev/channels — the /dev/channels form (development only): sends the text as the given
// chat user to the real bot route, signed like the platform would, then back to the page.
import { z } from "zod";
import { sendAsChatUser } from "@/lib/channels/dev/send-as-chat-user";
import { ApiError } from "@/lib/http/api-error";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";
import { parseFormBody } from "@/lib/http/parse-form-body";
import { route } from "@/lib/http/routes/route";

const formSchema = z.object({
  platform: z.enum(["Telegram", "Discord", "Slack"]),
  user: z.string().regex(/^\d{1,15}$/, "a user is a number"),
  text: z.string().min(1, "type something").max(10_000),
});

export const POST = route({ auth: async () => undefined }, async ({ req }) => {
  const form = formSchema.safeParse(Object.fromEntries((await parseFormBody(req, 64 * 1024)) ?? []));
  if (!form.success) throw new ApiError(400, form.error.issues[0]?.message ?? "Fill in the form.");
  const { platform, user, text } = form.data;
  await sendAsChatUser(platform, user, text);
  return new Response(null, { status: 303, headers: { Location: `/dev/channels?platform=${platform}&user=${user}` } });
});

export const GET = methodNotAllowed("POST");
export const PUT = GET;
export const PATCH = GET;
export const DELETE = GET;
