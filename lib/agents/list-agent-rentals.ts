import "server-only";
import type { AvailabilityTerms } from "@/lib/availability/availability-terms";
import { loadAvailability } from "@/lib/availability/load-availability";
import { db } from "@/lib/db";
import type { DurationType, RentalStatus } from "@/lib/generated/prisma/enums";

/** The newest this many are shown on the listing's page; it says so when there are more. */
export const AGENT_RENTALS_SHOWN = 20;

/** One rental of a listing as its owner sees it: by its reference, never its id (the code's prefix). */
export type AgentRental = {
  ref: string;
  status: Exclude<RentalStatus, "pending">;
  durationType: DurationType;
  startsAt: Date;
  endsAt: Date;
  priceMicro: bigint;
  /** Set once the escrow settled the rental by its measured minutes: the part of the price refunded. */
  availabilityRefundMicro: bigint | null;
  /** How a decided dispute ended: the part of the price returned (null: none decided). */
  disputeRefundMicro: bigint | null;
  /** The measured minutes so far (uptime, down minutes, the refund they make due). */
  terms: AvailabilityTerms | null;
};

/**
 * A listing's latest paid rentals, newest first, with their measured availability (one
 * loadAvailability call for them all), and how many it has in all. Rentals awaiting payment are
 * left out, as everywhere an owner looks.
 */
export async function listAgentRentals(agentId: string, now: Date = new Date()): Promise<{ rentals: AgentRental[]; total: number }> {
  // Free trials are not rentals (nothing paid, nothing measured): they count apart in the stats.
  const where = { agentId, status: { not: "pending" as const }, trial: false };
  const [rows, total] = await Promise.all([
    db.rental.findMany({
      where,
      orderBy: [{ startsAt: "desc" }, { createdAt: "desc" }, { id: "asc" }],
      take: AGENT_RENTALS_SHOWN,
      select: {
        id: true,
        ref: true,
        status: true,
        durationType: true,
        startsAt: true,
        endsAt: true,
        priceMicro: true,
        availabilityRefundMicro: true,
        disputeRefundMicro: true,
      },
    }),
    db.rental.count({ where }),
  ]);
  const terms = await loadAvailability(
    rows.map((row) => row.id),
    now,
  );
  // The id stays here: it served to read the minutes, and it must not reach the owner's page.
  const rentals = rows.map(({ id, ...row }) => ({
    ...row,
    status: row.status as AgentRental["status"],
    terms: terms.get(id) ?? null,
  }));
  return { rentals, total };
}
