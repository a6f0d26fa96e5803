import "server-only";
import { randomUUID } from "node:crypto";
import { chatCompletionSchema } from "@/lib/schemas/openai-compat";

// The answers of POST /v1/chat/completions in OpenAI's shapes: a `chat.completion`, or the
// `chat.completion.chunk`s of a stream. The agent's reply is the assistant message's content: a
// string as it is, anything else (an object, rich content) as its JSON text.

export type CompletionMeta = { id: string; created: number; model: string };

export function newCompletionMeta(model: string, now: Date = new Date()): CompletionMeta {
  return { id: `chatcmpl-${randomUUID().replaceAll("-", "")}`, created: Math.floor(now.getTime() / 1000), model };
}

export function replyText(reply: unknown): string {
  return typeof reply === "string" ? reply : JSON.stringify(reply);
}

/** Token counts are estimated (a quarter of the characters, rounded up): the service does not tokenize. */
export function estimatedUsage(prompt: string, completion: string) {
  const tokens = (text: string) => Math.ceil([...text].length / 4);
  const prompt_tokens = tokens(prompt);
  const completion_tokens = tokens(completion);
  return { prompt_tokens, completion_tokens, total_tokens: prompt_tokens + completion_tokens };
}

// Built through the schema the OpenAPI document shows, so no field more or less goes out.
export function chatCompletion(meta: CompletionMeta, prompt: string, content: string) {
  return chatCompletionSchema.parse({
    ...meta,
    object: "chat.completion",
    choices: [{ index: 0, message: { role: "assistant", content, refusal: null }, logprobs: null, finish_reason: "stop" }],
    usage: estimatedUsage(prompt, content),
  });
}

type Delta = { role?: "assistant"; content?: string };

export function completionChunk(meta: CompletionMeta, delta: Delta, finishReason: "stop" | null) {
  return { ...meta, object: "chat.completion.chunk", choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }] };
}

/** The last chunk of a stream asked for with `stream_options.include_usage`: no choices, the usage. */
export function usageChunk(meta: CompletionMeta, prompt: string, content: string) {
  return { ...meta, object: "chat.completion.chunk", choices: [], usage: estimatedUsage(prompt, content) };
}
