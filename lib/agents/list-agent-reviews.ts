import "server-only";
import { db } from "@/lib/db";

export type AgentReview = { id: string; score: number; comment: string; createdAt: Date };

/** The newest ratings of an agent that carry a comment, for its marketplace page. */
export async function listAgentReviews(agentId: string, limit = 5): Promise<AgentReview[]> {
  const ratings = await db.rating.findMany({
    where: { agentId, comment: { not: null } },
    orderBy: { createdAt: "desc" },
    take: limit,
    select: { id: true, score: true, comment: true, createdAt: true },
  });
  return ratings.flatMap((r) => (r.comment?.trim() ? [{ ...r, comment: r.comment }] : []));
}
