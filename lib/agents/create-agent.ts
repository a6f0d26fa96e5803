import "server-only";
import { randomUUID } from "node:crypto";
import { MAX_LISTINGS_PER_ACCOUNT } from "@/lib/accounts/account-limits";
import { lockAccount } from "@/lib/accounts/lock-account";
import { CATEGORY_SKILLS } from "@/lib/agents/categories";
import { sealWebhookCredentials, type WebhookCredentials } from "@/lib/agents/webhook-credentials";
import { db } from "@/lib/db";
import type { AgentStatus } from "@/lib/generated/prisma/enums";
import { ApiError } from "@/lib/http/api-error";
import { type AgentListing, GUARANTEE_PERMILLE } from "@/lib/schemas/agent-listing";

// Stores a validated listing. The id is drawn first because the webhook ciphertexts are bound to
// it; without skills the category's defaults apply (the owner API, as the spec says), unless
// `categoryDefaults` is false (the dashboard, which suggests them instead). An account holds at most 50 listings; the
// count and the insert run under the account's row lock, so parallel requests cannot pass the
// limit together.
type CreateOptions = { status: AgentStatus; webhook?: WebhookCredentials; categoryDefaults?: boolean };

export async function createAgent(ownerId: string, listing: AgentListing, options: CreateOptions) {
  const id = randomUUID();
  const given = [...new Set(listing.skills ?? [])];
  const skills = given.length || options.categoryDefaults === false ? given : [...CATEGORY_SKILLS[listing.category]];
  const sealed = options.webhook ? sealWebhookCredentials(id, options.webhook) : {};
  return db.$transaction(async (tx) => {
    await lockAccount(tx, ownerId);
    if ((await tx.agent.count({ where: { ownerId } })) >= MAX_LISTINGS_PER_ACCOUNT) {
      throw new ApiError(
        409,
        `This account already has ${MAX_LISTINGS_PER_ACCOUNT} listings, the most it can have; delete one you no longer need before adding another.`,
      );
    }
    return tx.agent.create({
      data: {
        id,
        ownerId,
        name: listing.name,
        description: listing.description,
        category: listing.category,
        skills,
        channels: listing.channels,
        pricePerHour: listing.pricePerHour ?? null,
        pricePerDay: listing.pricePerDay ?? null,
        pricePerMonth: listing.pricePerMonth ?? null,
        pricePerMessage: listing.pricePerMessage ?? null,
        trialMessages: listing.trialMessages ?? null,
        guaranteePermille: listing.guaranteePercent ?? GUARANTEE_PERMILLE.default,
        status: options.status,
        ...sealed,
      },
    });
  });
}
