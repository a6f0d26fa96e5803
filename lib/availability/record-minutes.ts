import "server-only";
import { minutesTotal } from "@/lib/availability/availability-terms";
import { addMinutes } from "@/lib/availability/minute-runs";
import { db } from "@/lib/db";

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
  const byRental = new Map<string, MinuteFacts[]>();
  for (const fact of facts) byRental.set(fact.rentalId, [...(byRental.get(fact.rentalId) ?? []), fact]);
  if (byRental.size === 0) return;
  await db.$transaction(async (tx) => {
    const rows = await tx.$queryRaw<LockedRental[]>`
      SELECT id::text AS id, starts_at AS "startsAt", ends_at AS "endsAt", minutes_measured AS "minutesMeasured",
             minutes_down AS "minutesDown", calls_checked_until AS "callsCheckedUntil"
        FROM rentals
       WHERE id = ANY(${[...byRental.keys()]}::uuid[]) AND release_tx_id IS NULL AND settled_at IS NULL
       ORDER BY id FOR UPDATE`;
    if (rows.length === 0) return;
    const updated = rows.map((row) => {
      const total = minutesTotal(row);
      const inside = (m: number) => m >= 0 && m < total;
      const mine = byRental.get(row.id)!;
      const down = mine.flatMap((f) => f.down).filter(inside);
      const measured = [...mine.flatMap((f) => f.measured), ...down].filter(inside);
      const until = Math.max(row.callsCheckedUntil, ...mine.map((f) => Math.min(total, f.callsCheckedUntil ?? 0)));
      return {
        id: row.id,
        measured: literal(addMinutes(row.minutesMeasured, measured)),
        down: literal(addMinutes(row.minutesDown, down)),
        until,
      };
    });
    await tx.$executeRaw`
      UPDATE rentals r
         SET minutes_measured = u.measured::int[], minutes_down = u.down::int[], calls_checked_until = u.until
        FROM unnest(${updated.map((u) => u.id)}::uuid[], ${updated.map((u) => u.measured)}::text[],
                    ${updated.map((u) => u.down)}::text[], ${updated.map((u) => u.until)}::int[]) AS u(id, measured, down, until)
       WHERE r.id = u.id`;
  });
}
