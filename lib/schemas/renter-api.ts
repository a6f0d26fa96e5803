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
export const channelSchema = z.enum(["Telegram", "Discord", "Slack", "WhatsApp", "Teams", "GoogleChat", "API"]);

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
    // A free trial's code (docs/trials.md); absent for every paid rental, whose body is the spec's.
    trial: z
      .object({
        messages_left: z
          .int()
          .min(0)
          .meta({ description: "Free messages left; at 0 (or once the owner ends the offer) chat answers 402." }),
      })
      .optional()
      .meta({ description: "Present only when the code is a free trial's: the agent's owner pays for its messages." }),
  })
  .meta({ id: "StatusResponse" });

// GET /v1/availability: the rental's measured minutes and what they make due (docs/availability.md).
// A minute is [starts_at + i min, starts_at + (i + 1) min); `down_minutes` are the starts of the
// down ones, ascending, from which `sla_hash` is recomputed.
export const availabilityResponseSchema = z
  .object({
    rental_id: z.uuid(),
    minutes_total: z.int().min(0).meta({ description: "Minutes of the rental, from starts_at to ends_at." }),
    minutes_measured: z.int().min(0).meta({ description: "Minutes the service measured so far (a probe or the rental's own calls)." }),
    minutes_down: z.int().min(0).meta({ description: "Minutes measured as down." }),
    down_minutes: z.array(z.iso.datetime()).meta({ description: "The start of each down minute, ascending." }),
    uptime_percent: z.number().min(0).max(100).nullable().meta({
      description:
        "Share of the minutes begun so far that were not down, in percent, rounded down to 2 decimals (a minute not measured counts as up); null before the first minute.",
    }),
    guarantee_percent: z.number().min(90).max(99.9).meta({ description: "The uptime the listing guaranteed when the rental was bought." }),
    refund_due_usdc: z
      .string()
      .regex(/^\d+(\.\d{1,6})?$/)
      .meta({
        description:
          "USDC the renter gets back for down minutes beyond the guarantee's allowance, as a decimal string; once the escrow has settled the rental, what it recorded.",
      }),
    sla_hash: z
      .string()
      .regex(/^0x[0-9a-f]{64}$/)
      .meta({
        description:
          "keccak256 of the ABI-encoded uint64[] of the down minutes' starts in unix seconds; the escrow's RentalSettled event records it.",
      }),
  })
  .meta({ id: "AvailabilityResponse" });

export const errorResponseSchema = z
  .object({ error: z.string().meta({ description: "What went wrong, in words a person can act on." }) })
  .meta({ id: "Error" });

export type ChatResponse = z.infer<typeof chatResponseSchema>;
export type StatusResponse = z.infer<typeof statusResponseSchema>;
export type AvailabilityResponse = z.infer<typeof availabilityResponseSchema>;
