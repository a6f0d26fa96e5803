import "server-only";
import { minutesTotal } from "@/lib/availability/availability-terms";
import { addMinutes } from "@/lib/availability/minute-runs";
import { db } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";

/** What one look at a rental found: minutes measured, minutes down (measured too), and how far the calls rule now reaches. */
export type MinuteFacts = { rentalId: string; measured: number[]; down: number[]; callsCheckedUntil?: number };

type LockedRental = {
  id: string;
  startsAt: Date;
  endsAt: Date;
  minutesMeasured: number[];
  minutesDown: number[];
  callsCheckedUntil: number;
};

const literal = (runs: number[]) => `{${runs.join(",")}}`;

/**
 * Adds the facts to each rental's run lists under its row lock (a union, so a fact recorded twice
 * changes nothing and two writers never lose each other's minutes). Minutes outside the rental are
 * dropped, and nothing is added once the rental's escrow settlement has been prepared (its record
 * is then what was settled).
 */
export async function recordMinutes(facts: MinuteFacts[]): Promise<void> {
  const ids = [...new Set(facts.map((f) => f.rentalId))];
  if (ids.length === 0) return;
  await db.$transaction(async (tx) => {
    const rows = await tx.$queryRaw<LockedRental[]>`
      SELECT id::text AS id, starts_at AS "startsAt", ends_at AS "endsAt", minutes_measured AS "minutesMeasured",
             minutes_down AS "minutesDown", calls_checked_until AS "callsCheckedUntil"
        FROM rentals
       WHERE id = ANY(${ids}::uuid[]) AND release_tx_id IS NULL AND settled_at IS NULL
       ORDER BY id FOR UPDATE`;
    await mergeMinutes(tx, rows, facts);
  });
}

/**
 * The merge itself, for rows the caller has locked in `client`'s transaction: writes each row's
 * new run lists and returns the rows as written (rows without facts unchanged).
 */
export async function mergeMinutes<Row extends LockedRental>(
  client: Prisma.TransactionClient,
  rows: Row[],
  facts: MinuteFacts[],
): Promise<Row[]> {
  const byRental = new Map<string, MinuteFacts[]>();
  for (const fact of facts) byRental.set(fact.rentalId, [...(byRental.get(fact.rentalId) ?? []), fact]);
  const merged = rows.map((row) => {
    const mine = byRental.get(row.id);
    if (!mine) return row;
    const total = minutesTotal(row);
    const inside = (m: number) => m >= 0 && m < total;
    const down = mine.flatMap((f) => f.down).filter(inside);
    const measured = [...mine.flatMap((f) => f.measured), ...down].filter(inside);
    return {
      ...row,
      minutesMeasured: addMinutes(row.minutesMeasured, measured),
      minutesDown: addMinutes(row.minutesDown, down),
      callsCheckedUntil: Math.max(row.callsCheckedUntil, ...mine.map((f) => Math.min(total, f.callsCheckedUntil ?? 0))),
    };
  });
  const updated = merged.filter((row) => byRental.has(row.id));
  if (updated.length > 0) {
    await client.$executeRaw`
      UPDATE rentals r
         SET minutes_measured = u.measured::int[], minutes_down = u.down::int[], calls_checked_until = u.until
        FROM unnest(${updated.map((u) => u.id)}::uuid[], ${updated.map((u) => literal(u.minutesMeasured))}::text[],
                    ${updated.map((u) => literal(u.minutesDown))}::text[], ${updated.map((u) => u.callsCheckedUntil)}::int[])
             AS u(id, measured, down, until)
       WHERE r.id = u.id`;
  }
  return merged;
}
