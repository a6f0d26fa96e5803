import "server-only";
import { ApiError } from "@/lib/http/api-error";
import { toErrorResponse } from "@/lib/http/to-error-response";
import { type CompletionMeta, completionChunk, replyText, usageChunk } from "@/lib/openai/chat-completion";
import { openAiErrorBody } from "@/lib/openai/openai-error-response";
import type { ChatResponse } from "@/lib/schemas/renter-api";

type Options = { prompt: string; includeUsage: boolean; keepAliveMs: number };

const encoder = new TextEncoder();
const event = (data: unknown) => encoder.encode(`data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`);
const KEEP_ALIVE = encoder.encode(": keep-alive\n\n");

/**
 * `stream: true`: server-sent events in OpenAI's chunk format. The webhook's reply is awaited for
 * one keep-alive period before anything is sent, so a quick failure still answers with its own
 * status (502, 503) like /v1/chat. After that the stream is committed: a comment every period
 * keeps proxies and clients from timing out while the webhook thinks, then the reply comes as a
 * role chunk, a content chunk and a stop chunk (and the usage, when asked), then `data: [DONE]`.
 * A failure after the commit is an `error` event in OpenAI's shape, which its clients raise.
 */
export async function streamChatCompletion(reply: Promise<ChatResponse>, meta: CompletionMeta, options: Options): Promise<Response> {
  const settled = reply.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  let timer: ReturnType<typeof setTimeout> | undefined;
  const early = await Promise.race([
    settled,
    new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), options.keepAliveMs))),
  ]);
  clearTimeout(timer);
  if (early && !early.ok) throw early.error;

  let interval: ReturnType<typeof setInterval> | undefined;
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      if (!early) {
        controller.enqueue(KEEP_ALIVE);
        interval = setInterval(() => controller.enqueue(KEEP_ALIVE), options.keepAliveMs);
      }
      const outcome = early ?? (await settled);
      clearInterval(interval);
      if (outcome.ok) {
        const content = replyText(outcome.value.response);
        controller.enqueue(event(completionChunk(meta, { role: "assistant", content: "" }, null)));
        controller.enqueue(event(completionChunk(meta, { content }, null)));
        controller.enqueue(event(completionChunk(meta, {}, "stop")));
        if (options.includeUsage) controller.enqueue(event(usageChunk(meta, options.prompt, content)));
        controller.enqueue(event("[DONE]"));
      } else {
        const status = outcome.error instanceof ApiError ? outcome.error.status : toErrorResponse(outcome.error).status;
        const message = outcome.error instanceof ApiError ? outcome.error.message : "Internal error; please try again later.";
        controller.enqueue(event(openAiErrorBody(status, message)));
      }
      controller.close();
    },
    cancel() {
      clearInterval(interval);
    },
  });
  return new Response(body, {
    headers: { "Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-cache, no-transform", "X-Accel-Buffering": "no" },
  });
}
