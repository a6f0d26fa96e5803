import "server-only";
import { loadAgentViews } from "@/lib/agents/load-agent-views";
import { db } from "@/lib/db";

// Every listing of one account, oldest first (a stable order for scripts that diff the list).
export async function listOwnerAgents(ownerId: string) {
  const agents = await db.agent.findMany({ where: { ownerId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  return loadAgentViews(agents);
}
