import "server-only";
import { type AgentRow, type AgentView, type ListingStats, toAgentView } from "@/lib/agents/to-agent-view";
import { db } from "@/lib/db";

const NO_STATS: ListingStats = { rating: { average: null, count: 0 }, totalRentals: 0 };

// Ratings and rental totals of many listings: one read of the agents' counters (kept by triggers,
// migration 20261125150000_agent_counters) for any number of agents. A rental awaiting payment is
// not counted. Shared by the owner API and the marketplace, so both show the same figures.
export async function loadListingStats(agentIds: string[]): Promise<Map<string, ListingStats>> {
  if (agentIds.length === 0) return new Map();
  // The counters the database keeps on each agent (rentals not awaiting payment, ratings).
  const rows = await db.agent.findMany({
    where: { id: { in: agentIds } },
    select: { id: true, rentalCount: true, ratingCount: true, ratingSum: true },
  });
  const of = new Map(rows.map((r) => [r.id, r]));
  return new Map(
    agentIds.map((id) => {
      const row = of.get(id);
      const count = row?.ratingCount ?? 0;
      const stats: ListingStats = {
        rating: { average: count === 0 ? null : Math.round((row!.ratingSum / count) * 100) / 100, count },
        totalRentals: row?.rentalCount ?? 0,
      };
      return [id, stats];
    }),
  );
}

// Owner views of listings with their ratings and rental totals.
export async function loadAgentViews(agents: AgentRow[]): Promise<AgentView[]> {
  const stats = await loadListingStats(agents.map((a) => a.id));
  return agents.map((agent) => toAgentView(agent, stats.get(agent.id) ?? NO_STATS));
}
