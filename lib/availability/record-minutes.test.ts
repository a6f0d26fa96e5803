import { randomBytes, randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { recordMinutes } from "@/lib/availability/record-minutes";
import { db } from "@/lib/db";
import { makeAgent, makeRental } from "@/test/fixtures";

const MINUTE = 60_000;
const T0 = Math.floor(Date.now() / MINUTE) * MINUTE + 40 * 86_400_000;

/** An hour rental from T0 (60 minutes), of an agent of its own. */
async function hourRental() {
  const agent = await makeAgent();
  const rental = await makeRental(agent.id, { durationType: "hour" });
  return db.rental.update({ where: { id: rental.id }, data: { startsAt: new Date(T0), endsAt: new Date(T0 + 60 * MINUTE) } });
}
const recordOf = (id: string) =>
  db.rental.findUniqueOrThrow({ where: { id }, select: { minutesMeasured: true, minutesDown: true, callsCheckedUntil: true } });

describe("recordMinutes", () => {
  it("adds the facts as run lists; a down minute is a measured one; minutes outside the rental are dropped", async () => {
    const rental = await hourRental();
    await recordMinutes([{ rentalId: rental.id, measured: [0, 1, 2, 5, -1, 60, 61], down: [2, 7, 59, 60, -3], callsCheckedUntil: 3 }]);
    expect(await recordOf(rental.id)).toEqual({
      minutesMeasured: [0, 3, 5, 6, 7, 8, 59, 60],
      minutesDown: [2, 3, 7, 8, 59, 60],
      callsCheckedUntil: 3,
    });
  });

  it("is idempotent: the same facts twice, or split differently, make the same record", async () => {
    const [a, b] = await Promise.all([hourRental(), hourRental()]);
    const facts = [
      { rentalId: a.id, measured: [10, 11, 12, 30], down: [11], callsCheckedUntil: 12 },
      { rentalId: a.id, measured: [13], down: [] },
    ];
    await recordMinutes(facts);
    const once = await recordOf(a.id);
    await recordMinutes(facts);
    expect(await recordOf(a.id)).toEqual(once);
    expect(once).toEqual({ minutesMeasured: [10, 14, 30, 31], minutesDown: [11, 12], callsCheckedUntil: 12 });

    // The same minutes as single facts, in another order, for another rental: the same lists.
    for (const m of [30, 13, 12, 11, 10]) await recordMinutes([{ rentalId: b.id, measured: [m], down: m === 11 ? [m] : [] }]);
    await recordMinutes([{ rentalId: b.id, measured: [], down: [], callsCheckedUntil: 12 }]);
    expect(await recordOf(b.id)).toEqual(once);
  });

  it("never moves callsCheckedUntil back, nor past the rental's last minute", async () => {
    const rental = await hourRental();
    await recordMinutes([{ rentalId: rental.id, measured: [], down: [], callsCheckedUntil: 40 }]);
    await recordMinutes([{ rentalId: rental.id, measured: [], down: [], callsCheckedUntil: 20 }]);
    expect((await recordOf(rental.id)).callsCheckedUntil).toBe(40);
    await recordMinutes([{ rentalId: rental.id, measured: [], down: [], callsCheckedUntil: 500 }]);
    expect((await recordOf(rental.id)).callsCheckedUntil).toBe(60);
  });

  it("loses no minute to concurrent writers", async () => {
    const rental = await hourRental();
    await Promise.all(
      Array.from({ length: 12 }, (_, i) => recordMinutes([{ rentalId: rental.id, measured: [i * 5], down: i % 3 === 0 ? [i * 5] : [] }])),
    );
    const record = await recordOf(rental.id);
    expect(record.minutesMeasured).toEqual(Array.from({ length: 12 }, (_, i) => [i * 5, i * 5 + 1]).flat());
    expect(record.minutesDown).toEqual([0, 1, 15, 16, 30, 31, 45, 46]);
  });

  it("ignores rentals that do not exist and an empty list of facts", async () => {
    await expect(recordMinutes([])).resolves.toBeUndefined();
    await expect(recordMinutes([{ rentalId: randomUUID(), measured: [1], down: [1] }])).resolves.toBeUndefined();
  });

  it("never changes a rental once its settlement is prepared (release_tx_id) or it is settled (settled_at)", async () => {
    const [prepared, settled] = await Promise.all([hourRental(), hourRental()]);
    const before = [{ rentalId: prepared.id, measured: [0, 1], down: [1], callsCheckedUntil: 1 }];
    await recordMinutes([...before, { ...before[0], rentalId: settled.id }]);
    const recorded = await recordOf(prepared.id);

    // A transaction that never left (failed, no nonce held), so no sweep of another test file touches it.
    const tx = await db.chainTransaction.create({
      data: { kind: "release", fromAddress: `0x${randomBytes(20).toString("hex")}`, nonce: 0, status: "failed" },
    });
    try {
      await db.rental.update({ where: { id: prepared.id }, data: { releaseTxId: tx.id } });
      await db.rental.update({ where: { id: settled.id }, data: { settledAt: new Date(T0 + 61 * MINUTE) } });
      const later = (rentalId: string) => ({ rentalId, measured: [2, 3, 4], down: [3, 4], callsCheckedUntil: 5 });
      await recordMinutes([later(prepared.id), later(settled.id)]);
      expect(await recordOf(prepared.id)).toEqual(recorded);
      expect(await recordOf(settled.id)).toEqual(recorded);

      // A rental still open in the same call is recorded.
      const open = await hourRental();
      await recordMinutes([later(prepared.id), later(open.id)]);
      expect(await recordOf(open.id)).toEqual({ minutesMeasured: [2, 5], minutesDown: [3, 5], callsCheckedUntil: 5 });
      expect(await recordOf(prepared.id)).toEqual(recorded);
    } finally {
      await db.chainTransaction.delete({ where: { id: tx.id } });
    }
  });
});
