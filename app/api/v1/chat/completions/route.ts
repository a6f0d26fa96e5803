// POST /api/v1/chat/completions — the OpenAI Chat Completions format over the same proxy as
// /v1/chat: the last user message goes to the agent's webhook, its reply comes back as the
// assistant's message (or as server-sent chunks with stream: true). Errors in OpenAI's shape.
import { env } from "@/lib/env";
import { parseJsonBody } from "@/lib/http/parse-json-body";
import { renterMethodNotAllowed, renterPreflight, renterRoute } from "@/lib/http/routes/renter-route";
import { chatCompletion, newCompletionMeta, replyText } from "@/lib/openai/chat-completion";
import { lastUserMessage } from "@/lib/openai/last-user-message";
import { toOpenAiErrorResponse } from "@/lib/openai/openai-error-response";
import { streamChatCompletion } from "@/lib/openai/stream-chat-completion";
import { chatWithRental } from "@/lib/rentals/chat-with-rental";
import { chatCompletionRequestSchema } from "@/lib/schemas/openai-compat";

// OpenAI clients send the whole conversation each time; only its last user message is used.
const MAX_BODY_BYTES = 1024 * 1024;

export const POST = renterRoute(
  401,
  async ({ req, auth: rental }) => {
    const body = await parseJsonBody(req, chatCompletionRequestSchema, MAX_BODY_BYTES);
    const message = lastUserMessage(body.messages);
    const meta = newCompletionMeta(body.model ?? rental.agent.id);
    const reply = chatWithRental(rental, message);
    if (!body.stream) return Response.json(chatCompletion(meta, message, replyText((await reply).response)));
    return streamChatCompletion(reply, meta, {
      prompt: message,
      includeUsage: body.stream_options?.include_usage === true,
      keepAliveMs: env.CHAT_STREAM_KEEPALIVE_MS,
    });
  },
  { errors: toOpenAiErrorResponse },
);

export const OPTIONS = renterPreflight;
export const GET = renterMethodNotAllowed("POST");
export const PUT = GET;
export const PATCH = GET;
export const DELETE = GET;
