import "server-only";
import { db } from "@/lib/db";
import { toAgentView, type AgentRow, type AgentView, type ListingStats } from "@/lib/agents/to-agent-view";

// Owner views of listings with their ratings and rental totals: two grouped queries for any
// number of agents, never one per agent. A rental awaiting payment is not counted.
export async function loadAgentViews(agents: AgentRow[]): Promise<AgentView[]> {
  if (agents.length === 0) return [];
  const agentId = { in: agents.map((a) => a.id) };
  const [ratings, rentals] = await Promise.all([
    db.rating.groupBy({ by: ["agentId"], where: { agentId }, _avg: { score: true }, _count: { _all: true } }),
    db.rental.groupBy({ by: ["agentId"], where: { agentId, status: { not: "pending" } }, _count: { _all: true } }),
  ]);
  const ratingOf = new Map(ratings.map((r) => [r.agentId, r]));
  const rentalsOf = new Map(rentals.map((r) => [r.agentId, r._count._all]));
  return agents.map((agent) => {
    const rating = ratingOf.get(agent.id);
    const average = rating?._avg.score;
    const stats: ListingStats = {
      rating: { average: average == null ? null : Math.round(average * 100) / 100, count: rating?._count._all ?? 0 },
      totalRentals: rentalsOf.get(agent.id) ?? 0,
    };
    return toAgentView(agent, stats);
  });
}
