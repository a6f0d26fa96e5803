import "server-only";
import { countAgentRentals } from "@/lib/agents/count-agent-rentals";
import { findOwnerAgent } from "@/lib/agents/find-owner-agent";
import { db } from "@/lib/db";
import { plural } from "@/lib/format/plural";
import { ApiError } from "@/lib/http/api-error";

// Deletes a listing that was never rented; its health checks go with it. A listing with any
// rental on record (running, finished, disputed or awaiting payment) is kept: rentals, escrow
// payouts and disputes must stay traceable to the agent they were for. The agent row is locked
// while deciding, so no rental can be created between the check and the delete.
export async function deleteAgent(ownerId: string, agentId: string): Promise<void> {
  await db.$transaction(async (tx) => {
    const agent = await findOwnerAgent(ownerId, agentId, tx);
    const active = await tx.rental.findFirst({
      where: { agentId: agent.id, status: "active", endsAt: { gt: new Date() }, trial: false },
      orderBy: { endsAt: "desc" },
      select: { endsAt: true },
    });
    if (active) {
      throw new ApiError(409, `This agent is rented until ${active.endsAt.toISOString()}; it cannot be deleted while a rental is active.`);
    }
    const rentals = await countAgentRentals(agent.id, tx);
    if (rentals > 0) {
      throw new ApiError(
        409,
        `This agent has rental history (${plural(rentals, "rental")}), which must stay traceable, so it cannot be deleted.`,
      );
    }
    // Free trials (never paid) go with the listing, their calls with them (ON DELETE CASCADE).
    await tx.rental.deleteMany({ where: { agentId: agent.id, trial: true } });
    await tx.agent.delete({ where: { id: agent.id } });
  });
}
