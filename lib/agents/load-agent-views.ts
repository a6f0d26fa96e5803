import "server-only";
import { type AgentRow, type AgentView, type ListingStats, toAgentView } from "@/lib/agents/to-agent-view";
import { db } from "@/lib/db";

const NO_STATS: ListingStats = { rating: { average: null, count: 0 }, totalRentals: 0 };

// Ratings and rental totals of many listings: two grouped queries (on the agent_id indexes) for
// any number of agents, never one per agent. A rental awaiting payment is not counted. Shared by
// the owner API and the marketplace, so both show the same figures.
export async function loadListingStats(agentIds: string[]): Promise<Map<string, ListingStats>> {
  if (agentIds.length === 0) return new Map();
  const agentId = { in: agentIds };
  const [ratings, rentals] = await Promise.all([
    db.rating.groupBy({ by: ["agentId"], where: { agentId }, _avg: { score: true }, _count: { _all: true } }),
    db.rental.groupBy({ by: ["agentId"], where: { agentId, status: { not: "pending" } }, _count: { _all: true } }),
  ]);
  const ratingOf = new Map(ratings.map((r) => [r.agentId, r]));
  const rentalsOf = new Map(rentals.map((r) => [r.agentId, r._count._all]));
  return new Map(
    agentIds.map((id) => {
      const rating = ratingOf.get(id);
      const average = rating?._avg.score;
      const stats: ListingStats = {
        rating: { average: average == null ? null : Math.round(average * 100) / 100, count: rating?._count._all ?? 0 },
        totalRentals: rentalsOf.get(id) ?? 0,
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
