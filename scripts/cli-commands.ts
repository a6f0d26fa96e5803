import { z } from "zod";
import { createOwnerAccount } from "@/lib/accounts/create-owner-account";
import { issueApiKey } from "@/lib/accounts/issue-api-key";
import { revokeApiKeys } from "@/lib/accounts/revoke-api-keys";
import { createAgent } from "@/lib/agents/create-agent";
import { toAgentView } from "@/lib/agents/to-agent-view";
import { newSigningSecret } from "@/lib/agents/webhook-credentials";
import { db } from "@/lib/db";
import { env, explicitNodeEnv } from "@/lib/env";
import { createUnpaidRental } from "@/lib/rentals/create-unpaid-rental";
import { findRentalByCode } from "@/lib/rentals/find-rental-by-code";
import { parseRentalCode } from "@/lib/rentals/parse-rental-code";
import { agentListingSchema } from "@/lib/schemas/agent-listing";
import { MAX_EXTENSION_PERIODS } from "@/lib/schemas/checkout";
import { channelSchema, durationTypeSchema } from "@/lib/schemas/renter-api";
import { chainCommands } from "./chain-cli-commands";
import { channelCommands } from "./channel-cli-commands";
import { disputeCommands } from "./dispute-cli-commands";

export type Flags = Record<string, string>;

// The commands that send transactions (checkout, extend, dispute:resolve, chain:reconcile) import
// what they need when they run: the chain client (viem) takes about a second and a half of CPU to
// load, which every other command, and every refusal of bad flags, would otherwise pay.

const seconds = z.coerce.number({ error: "must be a number of seconds" }).int("must be whole seconds");
const listingFlag: Record<string, string> = {
  pricePerHour: "price-hour",
  pricePerDay: "price-day",
  pricePerMonth: "price-month",
};

const commands: Record<string, { usage: string; run(flags: Flags): Promise<unknown> }> = {
  "owner:create": {
    usage: "owner:create --email <e> [--wallet <0x address>]",
    async run(flags) {
      const input = z
        .object({
          email: z.email({ error: "must be an e-mail address" }),
          wallet: z
            .string()
            .regex(/^0x[0-9a-fA-F]{40}$/, "must be a 0x-prefixed 20-byte address")
            .optional(),
        })
        .strict()
        .parse(flags);
      return createOwnerAccount({ email: input.email, walletAddress: input.wallet });
    },
  },
  "owner:key": {
    usage: "owner:key --owner <accountId> [--label <text>]",
    async run(flags) {
      const input = z
        .object({
          owner: z.uuid({ error: "must be an account id (UUID)" }),
          label: z.string().trim().min(1, "must not be empty").max(100, "must be at most 100 characters").optional(),
        })
        .strict()
        .parse(flags);
      const owner = await db.account.findUnique({ where: { id: input.owner }, select: { id: true } });
      if (!owner) throw new Error(`No account with id ${input.owner}.`);
      return issueApiKey(owner.id, input.label);
    },
  },
  "owner:revoke": {
    usage: "owner:revoke --key-prefix <rck_ and 8 characters, as shown with the key>",
    async run(flags) {
      const input = z
        .object({
          "key-prefix": z
            .string({ error: "is required: the key's 12-character prefix, such as rck_AbCdEfGh" })
            .regex(/^rck_[0-9A-Za-z]{8}$/, "must be a key's 12-character prefix, such as rck_AbCdEfGh"),
        })
        .strict()
        .parse(flags);
      const revoked = await revokeApiKeys(input["key-prefix"]);
      if (revoked === 0) throw new Error(`No active API key has the prefix ${input["key-prefix"]}.`);
      return { revoked };
    },
  },
  "agent:create": {
    usage:
      "agent:create --owner <accountId> --name <n> [--description …] [--category …] [--price-hour N] [--price-day N] [--price-month N] [--channels API,Telegram] [--webhook-url U --webhook-token T]",
    async run(flags) {
      const input = z
        .object({
          owner: z.uuid({ error: "must be an account id (UUID)" }),
          name: z.string(),
          description: z.string().default("An AI agent available for rent."),
          category: z.string().default("other"),
          "price-hour": z.string().optional(),
          "price-day": z.string().optional(),
          "price-month": z.string().optional(),
          channels: z.string().default("API"),
          "webhook-url": z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).optional(),
          "webhook-token": z.string().min(32, "must be at least 32 characters").optional(),
        })
        .strict()
        .refine((f) => (f["webhook-url"] === undefined) === (f["webhook-token"] === undefined), {
          message: "give --webhook-url and --webhook-token together",
          path: ["webhook-url"],
        })
        .parse(flags);
      const owner = await db.account.findUnique({ where: { id: input.owner }, select: { id: true } });
      if (!owner) throw new Error(`No account with id ${input.owner}.`);
      const parsed = agentListingSchema.safeParse({
        name: input.name,
        description: input.description,
        category: input.category,
        channels: input.channels.split(",").map((c) => c.trim()),
        pricePerHour: input["price-hour"],
        pricePerDay: input["price-day"],
        pricePerMonth: input["price-month"],
      });
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const field = String(issue.path[0] ?? "name");
        throw new Error(`--${listingFlag[field] ?? field}: ${issue.message}`);
      }
      const webhook = input["webhook-url"]
        ? { url: input["webhook-url"], token: input["webhook-token"]!, signingSecret: newSigningSecret() }
        : undefined;
      // An operator-made agent with a webhook is live at once; without one it waits offline.
      const agent = await createAgent(owner.id, parsed.data, { status: webhook ? "available" : "offline", webhook });
      // The webhook's signing secret is printed this once, as the dashboard shows it once.
      return { ...toAgentView(agent), ...(webhook ? { signingSecret: webhook.signingSecret } : {}) };
    },
  },
  "rental:checkout": {
    usage: "rental:checkout --agent <id> --duration hour|day|month [--channel API] [--payment permit|approve]",
    async run(flags) {
      const input = z
        .object({
          agent: z.uuid({ error: "must be an agent id (UUID)" }),
          duration: durationTypeSchema,
          channel: channelSchema.default("API"),
          payment: z.enum(["permit", "approve"]).default("permit"),
        })
        .strict()
        .parse(flags);
      if (!env.RENTER_PRIVATE_KEY) throw new Error("RENTER_PRIVATE_KEY is not set: the checkout pays with that wallet.");
      const { checkoutWithKey } = await import("@/lib/chain/checkout-with-key");
      const paid = await checkoutWithKey({
        agentId: input.agent,
        durationType: input.duration,
        channel: input.channel,
        renterKey: env.RENTER_PRIVATE_KEY as `0x${string}`,
        permit: input.payment === "permit",
      });
      // The live check the quote made of the agent's webhook; when it failed the quote was
      // refused (409) and nothing was paid: the CLI prints that message and exits non-zero.
      return { id: paid.id, code: paid.code, ends_at: paid.ends_at, txHash: paid.txHash, probe: paid.probe };
    },
  },
  "rental:extend": {
    usage: `rental:extend --rental <code> --periods 1-${MAX_EXTENSION_PERIODS} [--duration hour|day|month]`,
    async run(flags) {
      const input = z
        .object({
          rental: z.string({ error: "must be the rental code" }),
          periods: z.coerce.number().int("must be a whole number").min(1).max(MAX_EXTENSION_PERIODS),
          duration: durationTypeSchema.optional(),
        })
        .strict()
        .parse(flags);
      if (!env.RENTER_PRIVATE_KEY)
        throw new Error("RENTER_PRIVATE_KEY is not set: the extension pays with that wallet (the one that paid the rental).");
      const hex = parseRentalCode(input.rental);
      const lookup = hex ? await findRentalByCode(hex) : { kind: "none" as const };
      if (lookup.kind !== "found")
        throw new Error(
          lookup.kind === "ambiguous"
            ? "--rental: more than one rental matches; give more of the id."
            : "--rental: no rental has this code.",
        );
      // Same quote (live check, refusals), one permit + extendRentalWithPermit transaction, same confirm as the extend page.
      const { extendWithKey } = await import("@/lib/chain/extend-with-key");
      const extended = await extendWithKey({
        rentalId: lookup.rental.id,
        periods: input.periods,
        durationType: input.duration,
        renterKey: env.RENTER_PRIVATE_KEY as `0x${string}`,
      });
      // The owner's rental.extended call is sent before the CLI exits (its failure undoes nothing).
      await extended.notified;
      const { extension, durationType, periods, probe } = extended.quoted;
      return {
        code: lookup.rental.id.slice(0, 8),
        ends_at: extended.ends_at,
        added: `${periods} ${durationType}${periods === 1 ? "" : "s"}`,
        paid_micro_usdc: String(extension.addedPrice + extension.fee),
        txHash: extended.txHash,
        probe,
      };
    },
  },
  "rental:create": {
    usage:
      "rental:create --agent <id> --duration hour|day|month [--channel API] [--status active|cancelled|disputed|completed] [--starts-in SECONDS] [--ends-in SECONDS]",
    async run(flags) {
      // An unset NODE_ENV reads as development everywhere else; here it must be said out loud, so
      // an operator's shell pointed at the production database cannot make free rentals.
      if (explicitNodeEnv !== "development" && explicitNodeEnv !== "test") {
        throw new Error(
          `rental:create makes unpaid rentals, for development and tests only: run it with NODE_ENV=development (or test); NODE_ENV is ${explicitNodeEnv ? `"${explicitNodeEnv}"` : "not set"}.`,
        );
      }
      const input = z
        .object({
          agent: z.uuid({ error: "must be an agent id (UUID)" }),
          duration: durationTypeSchema,
          channel: channelSchema.default("API"),
          status: z.enum(["active", "cancelled", "disputed", "completed"]).default("active"),
          "starts-in": seconds.default(0),
          "ends-in": seconds.optional(),
        })
        .strict()
        .parse(flags);
      const rental = await createUnpaidRental({
        agentId: input.agent,
        durationType: input.duration,
        channel: input.channel,
        status: input.status,
        startsInSeconds: input["starts-in"],
        endsInSeconds: input["ends-in"],
      });
      return {
        id: rental.id,
        code: rental.id.slice(0, 8),
        starts_at: rental.startsAt.toISOString(),
        ends_at: rental.endsAt.toISOString(),
      };
    },
  },
  ...channelCommands,
  ...disputeCommands,
  ...chainCommands,
};

// Flags that take no value: `--fix` alone means yes.
const SWITCHES = new Set(["fix"]);

/**
 * `--name value` and `--name=value` (the form for values that start with a dash: `--ends-in=-60`;
 * `--ends-in -60` works too, since a value is anything but another flag); a switch (`--fix`) alone.
 */
export function parseFlags(args: string[]): Flags {
  const flags: Flags = {};
  for (let i = 0; i < args.length; i++) {
    const match = /^--([a-z][a-z-]*)(?:=(.*))?$/s.exec(args[i]);
    if (!match) throw new Error(`Unexpected argument "${args[i]}"; flags look like --name value or --name=value.`);
    const [, name, inline] = match;
    if (inline === undefined && SWITCHES.has(name)) {
      flags[name] = "true";
      continue;
    }
    if (inline !== undefined) {
      flags[name] = inline;
      continue;
    }
    const value = args[i + 1];
    if (value === undefined || /^--[a-z]/.test(value)) throw new Error(`Flag --${name} needs a value.`);
    flags[name] = value;
    i++;
  }
  return flags;
}

export async function runCli(command: string | undefined, flags: Flags): Promise<unknown> {
  const entry = command ? commands[command] : undefined;
  if (!entry) {
    const list = Object.values(commands)
      .map((c) => `  ${c.usage}`)
      .join("\n");
    throw new Error(`${command ? `Unknown command "${command}"` : "No command given"}. Commands:\n${list}`);
  }
  try {
    return await entry.run(flags);
  } finally {
    await db.$disconnect();
  }
}
