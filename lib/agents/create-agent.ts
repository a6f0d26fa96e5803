import "server-only";
import { randomUUID } from "node:crypto";
import { db } from "@/lib/db";
import { CATEGORY_SKILLS } from "@/lib/agents/categories";
import { sealWebhookCredentials, type WebhookCredentials } from "@/lib/agents/webhook-credentials";
import type { AgentStatus } from "@/lib/generated/prisma/enums";
import type { AgentListing } from "@/lib/schemas/agent-listing";

// Stores a validated listing. The id is drawn first because the webhook ciphertexts are bound to
// it; without skills the category's defaults apply.
export async function createAgent(
  ownerId: string,
  listing: AgentListing,
  options: { status: AgentStatus; webhook?: WebhookCredentials },
) {
  const id = randomUUID();
  const skills = listing.skills?.length ? [...new Set(listing.skills)] : [...CATEGORY_SKILLS[listing.category]];
  return db.agent.create({
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
      status: options.status,
      ...(options.webhook ? sealWebhookCredentials(id, options.webhook) : {}),
    },
  });
}
