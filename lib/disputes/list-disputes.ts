import "server-only";
import { db } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";

const SELECT = {
  reason: true,
  details: true,
  openedAt: true,
  resolvedAt: true,
  resolvedBy: true,
  rental: {
    select: {
      // The id stays on the server (the evidence is read by it); pages show the reference.
      id: true,
      ref: true,
      escrowId: true,
      agentId: true,
      status: true,
      startsAt: true,
      endsAt: true,
      priceMicro: true,
      feeMicro: true,
      renterAddress: true,
      payoutAddress: true,
      disputeRefundMicro: true,
      agent: { select: { name: true } },
    },
  },
} satisfies Prisma.DisputeSelect;

export type DisputeSummary = Prisma.DisputeGetPayload<{ select: typeof SELECT }> & { openedAt: Date };

const OPENED = { openedAt: { not: null } } satisfies Prisma.DisputeWhereInput;

/** Disputes waiting for a decision, oldest first (the arbiter console and `dispute:list`). */
export async function listOpenDisputes(limit = 100): Promise<DisputeSummary[]> {
  const rows = await db.dispute.findMany({
    where: { ...OPENED, resolvedAt: null, rental: { status: "disputed" } },
    orderBy: [{ openedAt: "asc" }, { rentalId: "asc" }],
    take: limit,
    select: SELECT,
  });
  return rows as DisputeSummary[];
}

/** One listing's disputes, open ones first, then the latest decided (the owner's listing page). */
export async function listAgentDisputes(agentId: string, limit = 20): Promise<DisputeSummary[]> {
  const rows = await db.dispute.findMany({
    where: { ...OPENED, rental: { agentId } },
    orderBy: [{ resolvedAt: { sort: "desc", nulls: "first" } }, { openedAt: "desc" }],
    take: limit,
    select: SELECT,
  });
  return rows as DisputeSummary[];
}
