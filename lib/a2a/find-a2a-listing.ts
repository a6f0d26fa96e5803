import "server-only";
import type { CardListing } from "@/lib/a2a/agent-cards";
import { db } from "@/lib/db";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A listing for its A2A card and endpoint. `listed`: on the marketplace now (available, webhook
 * connected), the only listings with a card. null for an unknown or deleted agent, or an id that
 * is not a UUID (never a database error).
 */
export async function findA2aListing(agentId: string): Promise<{ listing: CardListing; listed: boolean } | null> {
  if (!UUID.test(agentId)) return null;
  const agent = await db.agent.findUnique({
    where: { id: agentId.toLowerCase() },
    select: {
      id: true,
      name: true,
      description: true,
      category: true,
      skills: true,
      pricePerMessage: true,
      status: true,
      webhookUrlCipher: true,
    },
  });
  if (!agent) return null;
  const { status, webhookUrlCipher, ...listing } = agent;
  return { listing, listed: status === "available" && webhookUrlCipher !== null };
}
