import { z } from "zod";
import { formatCount } from "@/lib/format/number";

// Schemas of the renter surface (/v1). Requests are validated with them, responses are built
// through them (so no extra field leaks out), and /api/v1/openapi.json is generated from them.

export const MESSAGE_MAX_CHARS = 10_000;

// "Characters" as a person counts them: code points, so an emoji is one, not two.
const codePoints = (s: string) => {
  let n = 0;
  for (const _ of s) n++;
  return n;
};

export const chatRequestSchema = z
  .object({
    message: z
      .string({ error: (i) => (i.input === undefined ? "is required" : "must be a string") })
      .refine((s) => s.trim().length > 0, "must not be empty")
      .refine((s) => codePoints(s) <= MESSAGE_MAX_CHARS, `must be at most ${formatCount(MESSAGE_MAX_CHARS)} characters`)
      .meta({
        minLength: 1,
        maxLength: MESSAGE_MAX_CHARS,
        description: "The renter's message, passed to the agent's webhook.",
      }),
  })
  .meta({ id: "ChatRequest" });

export const rentalStatusSchema = z.enum(["active", "completed", "cancelled", "disputed"]);
export const durationTypeSchema = z.enum(["hour", "day", "month"]);
export const channelSchema = z.enum(["Telegram", "Discord", "Slack", "API"]);

export const chatResponseSchema = z
  .object({
    success: z.literal(true),
    agent: z.string().meta({ description: "Agent name." }),
    response: z.unknown().meta({ description: "Exactly what the webhook returned: usually a string, can be an object or rich content." }),
    rental: z.object({ id: z.uuid(), ends_at: z.iso.datetime() }),
  })
  .meta({ id: "ChatResponse" });

export const statusResponseSchema = z
  .object({
    rental: z.object({
      id: z.uuid(),
      status: rentalStatusSchema,
      starts_at: z.iso.datetime(),
      ends_at: z.iso.datetime(),
      duration_type: durationTypeSchema,
      channel: channelSchema,
      time_remaining_seconds: z.int().min(0).meta({ description: "Seconds until ends_at; 0 if expired." }),
    }),
    agent: z.object({ id: z.string(), name: z.string(), description: z.string() }),
  })
  .meta({ id: "StatusResponse" });

export const errorResponseSchema = z
  .object({ error: z.string().meta({ description: "What went wrong, in words a person can act on." }) })
  .meta({ id: "Error" });

export type ChatResponse = z.infer<typeof chatResponseSchema>;
export type StatusResponse = z.infer<typeof statusResponseSchema>;
