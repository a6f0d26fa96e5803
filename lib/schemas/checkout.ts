import { z } from "zod";
import { channelSchema, durationTypeSchema } from "@/lib/schemas/renter-api";

export const quoteRequestSchema = z
  .object({
    agentId: z.uuid({ error: "must be an agent id" }),
    durationType: durationTypeSchema,
    channel: channelSchema,
    renter: z.string().regex(/^0x[0-9a-fA-F]{40}$/, "must be the renter's 0x wallet address"),
  })
  .strict();

export const confirmRequestSchema = z
  .object({
    txHash: z.string().regex(/^0x[0-9a-fA-F]{64}$/, "must be a 0x-prefixed 32-byte transaction hash"),
    // Returned with the quote; without it (or a session of the paying wallet) the code is not returned.
    claimSecret: z.string().max(64, "must be the claimSecret the quote returned").optional(),
  })
  .strict();

export const chatMoveRequestSchema = z
  .object({
    rentalId: z.uuid({ error: "must be the rental's id, as confirm returned it" }),
    // The quote's claim secret: proves this browser paid for the rental (the code alone never does).
    claimSecret: z.string().max(64, "must be the claimSecret the quote returned"),
  })
  .strict();

/** The most periods one extension buys (12 hours, 12 days, 12 months). */
export const MAX_EXTENSION_PERIODS = 12;

// POST /api/checkout/extend-quote: the rental is named by its code, sent as for /v1
// (`X-API-Key: <code>` or `Authorization: Bearer <code>`), never in the body.
export const extendQuoteRequestSchema = z
  .object({
    periods: z
      .number()
      .int("must be a whole number of periods")
      .min(1, "must be at least 1")
      .max(MAX_EXTENSION_PERIODS, `must be at most ${MAX_EXTENSION_PERIODS}`),
    // The rental's own duration type when left out; a longer one switches up (an hour rental extended by a day).
    durationType: durationTypeSchema.optional(),
  })
  .strict();

export const extendConfirmRequestSchema = z
  .object({ txHash: z.string().regex(/^0x[0-9a-fA-F]{64}$/, "must be a 0x-prefixed 32-byte transaction hash") })
  .strict();
