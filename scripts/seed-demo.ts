// The built-in demo of `npm run dev`: an owner with a fresh API key, an "Echo Agent" whose
// webhook is the local echo agent, and an active month-long rental. Safe to run on every start.
import { issueApiKey } from "@/lib/accounts/issue-api-key";
import { createAgent } from "@/lib/agents/create-agent";
import { sealWebhookCredentials, type WebhookCredentials } from "@/lib/agents/webhook-credentials";
import { db } from "@/lib/db";
import { createUnpaidRental } from "@/lib/rentals/create-unpaid-rental";
import { agentListingSchema } from "@/lib/schemas/agent-listing";

const DEMO_EMAIL = "demo-owner@example.com";
const DEMO_AGENT = "Echo Agent";
const DEMO_KEY_LABEL = "demo (npm run dev)";

export async function seedDemo(webhook: WebhookCredentials) {
  const owner =
    (await db.account.findUnique({ where: { email: DEMO_EMAIL } })) ??
    (await db.account.create({ data: { email: DEMO_EMAIL } }));

  // A key is shown only once, so each start revokes the previous demo key and prints a new one.
  await db.apiKey.updateMany({
    where: { accountId: owner.id, label: DEMO_KEY_LABEL, revokedAt: null },
    data: { revokedAt: new Date() },
  });
  const { apiKey } = await issueApiKey(owner.id, DEMO_KEY_LABEL);

  let agent = await db.agent.findFirst({ where: { ownerId: owner.id, name: DEMO_AGENT } });
  if (agent) {
    // The echo agent's port and token change per start.
    agent = await db.agent.update({
      where: { id: agent.id },
      data: { status: "available", ...sealWebhookCredentials(agent.id, webhook) },
    });
  } else {
    const listing = agentListingSchema.parse({
      name: DEMO_AGENT,
      description: "Replies with whatever you send it. Handy for trying the API.",
      category: "other",
      channels: ["API", "Telegram"],
      pricePerHour: 1,
      pricePerDay: 5,
      pricePerMonth: 50,
    });
    agent = await createAgent(owner.id, listing, { status: "available", webhook });
  }

  const inAnHour = new Date(Date.now() + 3_600_000);
  const rental =
    (await db.rental.findFirst({
      where: { agentId: agent.id, status: "active", startsAt: { lte: new Date() }, endsAt: { gt: inAnHour } },
      orderBy: { endsAt: "desc" },
    })) ??
    (await createUnpaidRental({ agentId: agent.id, durationType: "month", channel: "API", status: "active", startsInSeconds: 0 }));

  return { accountId: owner.id, apiKey, agentId: agent.id, rentalId: rental.id, code: rental.id.slice(0, 8) };
}
