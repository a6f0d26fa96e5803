import "server-only";
import { loadListingStats } from "@/lib/agents/load-agent-views";
import { loadReliability } from "@/lib/agents/load-reliability";
import { type MarketplaceAgent, toMarketplaceAgent } from "@/lib/agents/to-marketplace-agent";
import { db } from "@/lib/db";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type MarketplaceAgentDetail = MarketplaceAgent & {
  // The latest webhook health check (scheduled or a test connection), if any ran.
  lastHealthCheck: { ok: boolean; at: Date } | null;
  // The uptime guarantee a rental bought now gets, in per mille (990 = 99 %; docs/availability.md).
  guaranteePermille: number;
};

// One listing for its public page, whatever its status (the page says why an offline one cannot
// be rented). null for an unknown id or one that is not a UUID (never a database error).
export async function findMarketplaceAgent(id: string): Promise<MarketplaceAgentDetail | null> {
  if (!UUID.test(id)) return null;
  const agentId = id.toLowerCase();
  const [agent, stats, reliability, lastCheck] = await Promise.all([
    db.agent.findUnique({
      where: { id: agentId },
      select: {
        id: true,
        name: true,
        description: true,
        category: true,
        skills: true,
        channels: true,
        pricePerHour: true,
        pricePerDay: true,
        pricePerMonth: true,
        pricePerMessage: true,
        trialMessages: true,
        guaranteePermille: true,
        status: true,
        webhookUrlCipher: true,
        createdAt: true,
        owner: { select: { displayName: true } },
        avatar: { select: { version: true } },
      },
    }),
    loadListingStats([agentId]),
    loadReliability([agentId], new Date()),
    db.healthCheck.findFirst({
      where: { agentId },
      orderBy: { createdAt: "desc" },
      select: { ok: true, createdAt: true },
    }),
  ]);
  if (!agent) return null;
  const { webhookUrlCipher, owner, avatar, guaranteePermille, ...row } = agent;
  return {
    ...toMarketplaceAgent(
      { ...row, webhookConnected: webhookUrlCipher !== null, ownerName: owner.displayName, avatarVersion: avatar?.version ?? null },
      stats.get(agentId)!,
      reliability.get(agentId)!,
    ),
    lastHealthCheck: lastCheck ? { ok: lastCheck.ok, at: lastCheck.createdAt } : null,
    guaranteePermille,
  };
}
