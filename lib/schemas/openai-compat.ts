import { z } from "zod";

// The slice of OpenAI's Chat Completions request the service reads (POST /v1/chat/completions).
// Loose objects: every other field an OpenAI client sends (temperature, tools, …) is accepted and
// ignored, so existing code works unchanged.
const contentPart = z.looseObject({ type: z.string(), text: z.string().optional() });

export const chatCompletionMessageSchema = z.looseObject({
  role: z.string({ error: "must be a string such as user" }),
  content: z.union([z.string(), z.array(contentPart), z.null()], { error: "must be a string or an array of content parts" }).optional(),
});

export const chatCompletionRequestSchema = z.looseObject({
  model: z.string({ error: "must be a string" }).max(200, "must be at most 200 characters").optional(),
  messages: z.array(chatCompletionMessageSchema, { error: "is required: an array of messages" }).min(1, "must hold at least one message"),
  stream: z.boolean({ error: "must be true or false" }).nullish(),
  stream_options: z.looseObject({ include_usage: z.boolean().optional() }).nullish(),
});

export type ChatCompletionMessage = z.infer<typeof chatCompletionMessageSchema>;
