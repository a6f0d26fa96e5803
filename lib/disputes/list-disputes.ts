import "server-only";
import { db } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";

const SELECT = {
  reason: true,
  details: true,
  openedAt: true,
  ownerAnswer: true,
  ownerAnsweredAt: true,
  resolvedAt: true,
  resolvedBy: true,
  resolveTxHash: true,
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

/** How many decided disputes the console shows per page. */
export const DECIDED_PER_PAGE = 20;

export type DecidedDispute = DisputeSummary & { resolvedAt: Date };

/**
 * Decided disputes, newest decision first, a page at a time (the arbiter console's history), and
 * how many there are in all.
 */
export async function listDecidedDisputes(page = 1): Promise<{ disputes: DecidedDispute[]; total: number }> {
  const where = { ...OPENED, resolvedAt: { not: null } } satisfies Prisma.DisputeWhereInput;
  const [rows, total] = await Promise.all([
    db.dispute.findMany({
      where,
      orderBy: [{ resolvedAt: "desc" }, { rentalId: "asc" }],
      skip: (page - 1) * DECIDED_PER_PAGE,
      take: DECIDED_PER_PAGE,
      select: SELECT,
    }),
    db.dispute.count({ where }),
  ]);
  return { disputes: rows as DecidedDispute[], total };
}
