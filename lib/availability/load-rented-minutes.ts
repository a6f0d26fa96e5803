import "server-only";
import { addRentedMinutes, type RentedMinutes, rentedMinutesBetween, type WindowRental } from "@/lib/availability/rented-minutes";
import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";

type Row = WindowRental & { agentId: string };

/**
 * The measured rental minutes of many agents in [since, now], summed per agent, in one query:
 * the paid rentals (active, disputed, completed, cancelled) of the given agents, or of all of an
 * owner's agents, that overlap the window. Agents without any are left out.
 */
export async function loadRentedMinutes(
  agents: { agentIds: string[] } | { ownerId: string },
  since: Date,
  now: Date,
): Promise<Map<string, RentedMinutes>> {
  if ("agentIds" in agents && agents.agentIds.length === 0) return new Map();
  const whose =
    "agentIds" in agents
      ? Prisma.sql`r.agent_id = ANY(${agents.agentIds}::uuid[])`
      : Prisma.sql`r.agent_id IN (SELECT id FROM agents WHERE owner_id = ${agents.ownerId}::uuid)`;
  const rows = await db.$queryRaw<Row[]>`
    SELECT r.agent_id::text AS "agentId", r.status::text AS status, r.starts_at AS "startsAt", r.ends_at AS "endsAt",
           r.minutes_measured AS "minutesMeasured", r.minutes_down AS "minutesDown"
      FROM rentals r
     WHERE ${whose} AND r.status IN ('active', 'disputed', 'completed', 'cancelled') AND NOT r.trial
       AND r.starts_at <= ${now} AND r.ends_at > ${since}`;
  const byAgent = new Map<string, RentedMinutes>();
  for (const row of rows) {
    const minutes = rentedMinutesBetween(row, since, now);
    if (minutes.elapsed > 0) byAgent.set(row.agentId, addRentedMinutes(byAgent.get(row.agentId) ?? { elapsed: 0, down: 0 }, minutes));
  }
  return byAgent;
}
