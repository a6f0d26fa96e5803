// Listings as the marketplace shows them: listed on a given day, with rentals and ratings.
import { db } from "@/lib/db";
import type { RentalStatus } from "@/lib/generated/prisma/enums";
import type { AgentListingInput } from "@/lib/schemas/agent-listing";
import { makeAgent, makeRental } from "@/test/fixtures";

const webhook = { url: "https://agent.example.com/hooks/agent", token: "t".repeat(32) };

/** An available agent with a webhook, unpriced unless the listing says, listed at `createdAt`. */
export async function listedAgent(listing: Partial<AgentListingInput>, createdAt: string) {
  const agent = await makeAgent({ webhook, listing: { pricePerHour: null, pricePerDay: null, pricePerMonth: null, ...listing } });
  return db.agent.update({ where: { id: agent.id }, data: { createdAt: new Date(createdAt) } });
}

/** One rental of the agent per status, the i-th rated scores[i] when given. */
export async function rentalsOf(agent: Awaited<ReturnType<typeof listedAgent>>, statuses: RentalStatus[], scores: number[] = []) {
  for (const [i, status] of statuses.entries()) {
    const durationType = agent.pricePerDay !== null ? "day" : agent.pricePerHour !== null ? "hour" : "month";
    const rental = await makeRental(agent.id, { status, durationType, channel: agent.channels[0] });
    if (scores[i] !== undefined) await db.rating.create({ data: { rentalId: rental.id, agentId: agent.id, score: scores[i] } });
  }
}
