import { z } from "zod";

// The slice of OpenAI's Chat Completions request the service reads (POST /v1/chat/completions).
// Loose objects: every other field an OpenAI client sends (temperature, tools, …) is accepted and
// ignored, so existing code works unchanged.
const contentPart = z.looseObject({ type: z.string(), text: z.string().optional() });

export const chatCompletionMessageSchema = z.looseObject({
  role: z.string({ error: "must be a string such as user" }),
  content: z.union([z.string(), z.array(contentPart), z.null()], { error: "must be a string or an array of content parts" }).optional(),
});

export const chatCompletionRequestSchema = z
  .looseObject({
    model: z
      .string({ error: "must be a string" })
      .max(200, "must be at most 200 characters")
      .optional()
      .meta({ description: "Any name (echoed back); absent: the agent's id." }),
    messages: z
      .array(chatCompletionMessageSchema, { error: "is required: an array of messages" })
      .min(1, "must hold at least one message")
      .meta({ description: "The conversation; its last user message is what the agent receives (at most 10,000 characters)." }),
    stream: z
      .boolean({ error: "must be true or false" })
      .nullish()
      .meta({ description: "true: server-sent events in OpenAI's chunk format." }),
    stream_options: z.looseObject({ include_usage: z.boolean().optional() }).nullish(),
  })
  .meta({ id: "ChatCompletionRequest" });

const usageSchema = z.object({ prompt_tokens: z.int(), completion_tokens: z.int(), total_tokens: z.int() }).meta({
  description: "Estimates: a quarter of the characters, rounded up (the service does not tokenize).",
});

export const chatCompletionSchema = z
  .object({
    id: z.string(),
    object: z.literal("chat.completion"),
    created: z.int(),
    model: z.string(),
    choices: z.array(
      z.object({
        index: z.int(),
        message: z.object({
          role: z.literal("assistant"),
          content: z.string().meta({ description: "The agent's reply: a string as it is, anything else as its JSON text." }),
          refusal: z.null(),
        }),
        logprobs: z.null(),
        finish_reason: z.literal("stop"),
      }),
    ),
    usage: usageSchema,
  })
  .meta({ id: "ChatCompletion" });

export const modelListSchema = z
  .object({
    object: z.literal("list"),
    data: z.array(z.object({ id: z.string(), object: z.literal("model"), created: z.int(), owned_by: z.string() })),
  })
  .meta({ id: "ModelList" });

export const openAiErrorSchema = z
  .object({ error: z.object({ message: z.string(), type: z.string(), param: z.null(), code: z.string() }) })
  .meta({ id: "OpenAIError" });

export type ChatCompletionMessage = z.infer<typeof chatCompletionMessageSchema>;
