import { z } from "zod";
import { CATEGORIES, MAX_SKILLS } from "@/lib/agents/categories";
import { usdcToMicro } from "@/lib/money/usdc";
import { channelSchema } from "@/lib/schemas/renter-api";
import { strictObjectError } from "@/lib/schemas/strict-object-error";

// A price in USDC (number or decimal string): more than 0, at most 1,000,000, at most 6 decimals
// (USDC's smallest unit, 0.000001) → micro-USDC. null or absent leaves the duration disabled. Each
// refusal says which of these the value breaks.
const MAX_PRICE_MICRO = 1_000_000_000_000n; // 1,000,000 USDC
export const usdcPriceSchema = z
  .union([z.number(), z.string()], { error: "must be a USDC amount such as 12.5" })
  .transform((value, ctx) => {
    const micro = usdcToMicro(value);
    const refuse = (message: string) => {
      ctx.addIssue({ code: "custom", message });
      return z.NEVER;
    };
    if (micro === null) return refuse(notAnAmount(value));
    if (micro === 0n) return refuse("must be more than 0");
    if (micro > MAX_PRICE_MICRO) return refuse("must be at most 1,000,000 USDC");
    return micro;
  });

// Why usdcToMicro refused it: a minus sign, a seventh decimal, or no number at all. A number is
// read in plain digits (String(1e-7) is "1e-7").
function notAnAmount(value: number | string, example = "12.5"): string {
  const text = typeof value !== "number" ? value.trim() : Math.abs(value) < 1e21 ? value.toFixed(20) : String(value);
  if (/^-\s*\.?\d/.test(text)) return "must not be negative";
  if (/^\d*\.\d{7,}$/.test(text)) return "must have at most 6 decimals";
  return `must be a USDC amount such as ${example}`;
}

// The price of one answer sold over x402 (issue 27): at least 0.001 USDC (agents.price_per_message
// has the same CHECK, ≥ 1,000 micro-USDC), at most what a rental price may be, at most 6 decimals.
// null or absent: not sold per message.
export const MIN_MESSAGE_PRICE_MICRO = 1_000n;
export const usdcMessagePriceSchema = z
  .union([z.number(), z.string()], { error: "must be a USDC amount such as 0.01" })
  .transform((value, ctx) => {
    const micro = usdcToMicro(value);
    const refuse = (message: string) => {
      ctx.addIssue({ code: "custom", message });
      return z.NEVER;
    };
    if (micro === null) return refuse(notAnAmount(value, "0.01"));
    if (micro < MIN_MESSAGE_PRICE_MICRO) return refuse("must be at least 0.001 USDC");
    if (micro > MAX_PRICE_MICRO) return refuse("must be at most 1,000,000 USDC");
    return micro;
  });

// The spec: "a duration whose price is left blank is disabled", so a blank string (an empty form
// field) means the same as null. The price per message follows the same rule: blank, not sold
// per message.
const blankIsNull = (value: number | string | null) => (typeof value === "string" && value.trim() === "" ? null : value);
const priceFieldSchema = z.preprocess(blankIsNull, usdcPriceSchema.nullable()).optional();
const messagePriceFieldSchema = z.preprocess(blankIsNull, usdcMessagePriceSchema.nullable()).optional();

// A free trial (issue 29, docs/trials.md): the messages each renter may send free, a whole number
// from 1 to 20 (agents.trial_messages has the same CHECK). null or blank: no trial; setting it so
// ends the offer and every running trial. The form sends text, the API a number (or a digit string).
export const MAX_TRIAL_MESSAGES = 20;
export const trialMessagesSchema = z
  .union([z.number(), z.string()], { error: `must be a whole number of messages from 1 to ${MAX_TRIAL_MESSAGES}, or null for no trial` })
  .transform((value, ctx) => {
    const n = typeof value === "number" ? value : /^\s*\d+\s*$/.test(value) ? Number(value) : Number.NaN;
    if (!Number.isInteger(n) || n < 1 || n > MAX_TRIAL_MESSAGES) {
      ctx.addIssue({ code: "custom", message: `must be a whole number of messages from 1 to ${MAX_TRIAL_MESSAGES}, or null for no trial` });
      return z.NEVER;
    }
    return n;
  });
const trialFieldSchema = z.preprocess(blankIsNull, trialMessagesSchema.nullable()).optional();

// The uptime guarantee (docs/availability.md), in percent with at most one decimal, from 90 to
// 99.9 (99 by default) → per mille as stored (agents.guarantee_permille, CHECK 900–999): down
// minutes beyond what it allows are refunded to the renter. Decimal text is read digit by digit,
// so 99.9 is 999 exactly and 99.95 is refused rather than rounded.
export const GUARANTEE_PERMILLE = { min: 900, max: 999, default: 990 } as const;
const GUARANTEE_TEXT = /^(\d{1,3})(?:\.(\d))?$/;
export const guaranteePercentSchema = z
  .union([z.number(), z.string()], { error: "must be a percentage from 90 to 99.9, such as 99 or 99.5" })
  .transform((value, ctx) => {
    const text = typeof value === "number" ? (Number.isFinite(value) ? String(value) : "") : value.trim();
    const refuse = (message: string) => {
      ctx.addIssue({ code: "custom", message });
      return z.NEVER;
    };
    if (/^\d+\.\d{2,}$/.test(text)) return refuse("must have at most one decimal, such as 99.5");
    const match = GUARANTEE_TEXT.exec(text);
    if (!match) return refuse("must be a percentage from 90 to 99.9, such as 99 or 99.5");
    const permille = Number(match[1]) * 10 + Number(match[2] ?? 0);
    if (permille < GUARANTEE_PERMILLE.min || permille > GUARANTEE_PERMILLE.max) return refuse("must be between 90 and 99.9");
    return permille;
  });

// Control characters never belong in a listing, and PostgreSQL refuses NUL in text outright (a
// 500 before this check). A name is one line; a description may keep line breaks and tabs.
const NAME_CONTROL = /\p{Cc}/u;
const DESCRIPTION_CONTROL = /[^\P{Cc}\t\n\r]/u;

const text = (min: number, minMessage: string, max: number, control: RegExp, controlMessage: string) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? "is required" : "must be a string") })
    .trim()
    .min(min, minMessage)
    .max(max, `must be at most ${max} characters`)
    .refine((value) => !control.test(value), controlMessage);

const skillSchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, "skills are lower-case kebab tags such as code-review")
  .max(32);

const listingShape = {
  name: text(
    2,
    "must be at least 2 characters",
    60,
    NAME_CONTROL,
    "must not contain control characters (such as NUL, tab or a line break)",
  ),
  description: text(
    1,
    "must not be empty",
    500,
    DESCRIPTION_CONTROL,
    "must not contain control characters other than line breaks and tabs (such as NUL)",
  ),
  category: z.enum(CATEGORIES, { error: `must be one of ${CATEGORIES.join(", ")}` }),
  skills: z.array(skillSchema, { error: "must be a list of skill tags" }).max(MAX_SKILLS, `at most ${MAX_SKILLS} skills`).optional(),
  channels: z
    .array(channelSchema, { error: "must be a list of channels (Telegram, Discord, Slack, WhatsApp, Teams, GoogleChat, API)" })
    .min(1, "must name at least one channel")
    .transform((list) => [...new Set(list)]),
  pricePerHour: priceFieldSchema,
  pricePerDay: priceFieldSchema,
  pricePerMonth: priceFieldSchema,
  // Sold one answer at a time besides the rentals, never instead of them: a listing still needs a
  // rental price (the refine below), so every marketplace listing can be rented.
  pricePerMessage: messagePriceFieldSchema,
  // Free messages per renter, paid for by the owner (docs/trials.md); null: no trial.
  trialMessages: trialFieldSchema,
  // Absent: 99 % for a new listing, unchanged for an update.
  guaranteePercent: guaranteePercentSchema.optional(),
};
const LISTING_FIELDS = Object.keys(listingShape);
const objectError = strictObjectError(LISTING_FIELDS);

export const agentListingSchema = z
  .strictObject(listingShape, { error: objectError })
  .refine((a) => a.pricePerHour != null || a.pricePerDay != null || a.pricePerMonth != null, {
    message: "set a price for at least one duration: per hour, per day or per month",
    path: ["pricePerHour"],
  });

// A partial update: an absent field stays as it is; a price set to null or "" disables that
// duration (whether one price remains is checked against the stored listing).
export const agentListingPatchSchema = z
  .strictObject(listingShape, { error: objectError })
  .partial()
  .refine((patch) => Object.keys(patch).length > 0, `send at least one field to change: ${LISTING_FIELDS.join(", ")}`);

export type AgentListingInput = z.input<typeof agentListingSchema>;
export type AgentListing = z.output<typeof agentListingSchema>;
export type AgentListingPatch = z.output<typeof agentListingPatchSchema>;
