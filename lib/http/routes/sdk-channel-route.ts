import "server-only";
import { channelName } from "@/lib/channels/channel-name";
import { chatBot } from "@/lib/channels/chat-bot";
import type { SdkPlatform } from "@/lib/channels/sdk-platform";
import { afterResponse } from "@/lib/http/after-response";
import { ApiError } from "@/lib/http/api-error";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";
import { readBodyBytes } from "@/lib/http/read-body";
import { route } from "@/lib/http/routes/route";

// Platform requests are small (one event with a message of a few thousand characters).
const MAX_BODY_BYTES = 256 * 1024;

/**
 * The webhook of a bot on the Chat SDK (docs/channels.md): 404 while the platform's settings are
 * missing; the body read once (capped); then the platform's official adapter verifies it (nothing
 * unverified reaches the database or an owner) and answers at once, the messages handled after
 * the answer. What the adapter refuses comes back in the API's JSON error form.
 */
export function sdkChannelRoute<M extends "GET" | "POST">(platform: SdkPlatform, methods: readonly M[]) {
  const handle = route({ auth: async () => undefined }, async ({ req }) => {
    if (!platform.configured()) throw new ApiError(404, `The ${channelName(platform.name)} bot is not set up on this service.`);
    const body = req.method === "POST" ? new Uint8Array(await readBodyBytes(req, MAX_BODY_BYTES)) : undefined;
    const request = new Request(req.url, { method: req.method, headers: req.headers, body });
    const webhook = (await chatBot()).webhooks[platform.adapterName];
    let answer: Response;
    try {
      answer = await webhook(request, {
        waitUntil: (task) => void afterResponse(`a ${channelName(platform.name)} message`, () => task.then(() => undefined)),
        // Each delivery is claimed once for good by its platform's key (lib/channels/chat-bot.ts),
        // not by the SDK's message-id cache of a few minutes.
        deduplicate: false,
      });
    } catch (error) {
      // Signed, then not the shape of an event (the adapter read a field that is not there).
      if (error instanceof TypeError || error instanceof SyntaxError) throw new ApiError(400, notAnEvent(platform));
      throw error;
    }
    // An event's answer is its status alone (the adapters say "OK"; Telegram would read a JSON body
    // as a method to call), unless the platform reads it; a verification GET's body is the challenge.
    if (answer.status < 400) return req.method === "POST" && !platform.answerBody ? new Response(null, { status: answer.status }) : answer;
    throw new ApiError(answer.status, refusal(platform, answer.status));
  });
  const refuse = methodNotAllowed(methods.join(", "));
  // A method the platform does not use is typed as the refusal it is.
  const serve = <K extends "GET" | "POST">(method: K) =>
    (methods.includes(method as never) ? handle : refuse) as K extends M ? typeof handle : typeof refuse;
  return { GET: serve("GET"), POST: serve("POST"), PUT: refuse, PATCH: refuse, DELETE: refuse };
}

function refusal(platform: SdkPlatform, status: number): string {
  if (status === 401) return `This request is not signed by ${channelName(platform.name)}.`;
  if (status === 403) return "The verify token does not match this service's.";
  if (status === 400) return notAnEvent(platform);
  return `The ${channelName(platform.name)} adapter refused the request (HTTP ${status}).`;
}

function notAnEvent(platform: SdkPlatform): string {
  return `This is not a ${channelName(platform.name)} webhook event.`;
}
