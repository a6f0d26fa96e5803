import { z } from "zod";
import { CATEGORIES, MAX_SKILLS } from "@/lib/agents/categories";
import { usdcToMicro } from "@/lib/money/usdc";
import { channelSchema } from "@/lib/schemas/renter-api";

// A price in USDC (number or decimal string), positive, at most 6 decimals → micro-USDC.
// null or absent leaves the duration disabled.
const MAX_PRICE_MICRO = 1_000_000_000_000n; // 1,000,000 USDC
export const usdcPriceSchema = z
  .union([z.number(), z.string()], { error: "must be a USDC amount such as 12.5" })
  .transform((value, ctx) => {
    const micro = usdcToMicro(value);
    if (micro === null) {
      ctx.addIssue({ code: "custom", message: "must be a USDC amount with at most 6 decimals" });
      return z.NEVER;
    }
    if (micro <= 0n || micro > MAX_PRICE_MICRO) {
      ctx.addIssue({ code: "custom", message: "must be more than 0 and at most 1,000,000 USDC" });
      return z.NEVER;
    }
    return micro;
  });

const skillSchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, "skills are lower-case kebab tags such as code-review")
  .max(32);

export const agentListingSchema = z
  .object({
    name: z.string().trim().min(2, "must be at least 2 characters").max(60, "must be at most 60 characters"),
    description: z.string().trim().min(1, "must not be empty").max(500, "must be at most 500 characters"),
    category: z.enum(CATEGORIES, { error: `must be one of ${CATEGORIES.join(", ")}` }),
    skills: z.array(skillSchema).max(MAX_SKILLS, `at most ${MAX_SKILLS} skills`).optional(),
    channels: z
      .array(channelSchema, { error: "must be a list of channels (Telegram, Discord, Slack, API)" })
      .min(1, "must name at least one channel")
      .transform((list) => [...new Set(list)]),
    pricePerHour: usdcPriceSchema.nullish(),
    pricePerDay: usdcPriceSchema.nullish(),
    pricePerMonth: usdcPriceSchema.nullish(),
  })
  .refine((a) => a.pricePerHour != null || a.pricePerDay != null || a.pricePerMonth != null, {
    message: "set at least one of pricePerHour, pricePerDay, pricePerMonth",
    path: ["pricePerHour"],
  });

export type AgentListingInput = z.input<typeof agentListingSchema>;
export type AgentListing = z.output<typeof agentListingSchema>;
