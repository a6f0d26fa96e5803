import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { loadAvailability } from "@/lib/availability/load-availability";
import { db } from "@/lib/db";
import { makeAgent, makeRental } from "@/test/fixtures";

// The rentals sit at T0, a minute boundary 40 days ahead; every read is given its `now`.
const MINUTE = 60_000;
const T0 = Math.floor(Date.now() / MINUTE) * MINUTE + 40 * 86_400_000;
const at = (minute: number, seconds = 0) => new Date(T0 + minute * MINUTE + seconds * 1000);

/** An hour rental from T0 (60 minutes), of an agent of its own. */
async function hourRental() {
  const agent = await makeAgent();
  const rental = await makeRental(agent.id, { durationType: "hour" });
  return db.rental.update({ where: { id: rental.id }, data: { startsAt: new Date(T0), endsAt: new Date(T0 + 60 * MINUTE) } });
}
const recordOf = (id: string) =>
  db.rental.findUniqueOrThrow({ where: { id }, select: { minutesMeasured: true, minutesDown: true, callsCheckedUntil: true } });
// Chat calls as the chat route records them: created_at is when the call finished.
const insertCalls = (rental: { id: string; agentId: string }, calls: [finishedAt: Date, statusCode: number][]) =>
  db.chatCall.createMany({
    data: calls.map(([createdAt, statusCode]) => ({
      rentalId: rental.id,
      agentId: rental.agentId,
      statusCode,
      latencyMs: 12,
      requestBytes: 40,
      responseBytes: 80,
      createdAt,
    })),
  });

describe("loadAvailability", () => {
  it("applies the calls rule to the minutes that have ended, exactly once (calls_checked_until advances)", async () => {
    const [a, b] = await Promise.all([hourRental(), hourRental()]);
    await insertCalls(a, [
      [at(2, 10), 500],
      [at(2, 20), 200],
      [at(2, 30), 200], // minute 2: 1 of 3 failed → up
      [at(3, 1), 502], // minute 3: not ended at the first read
    ]);
    await insertCalls(b, [
      [at(1, 0), 504],
      [at(1, 59.999), 200], // minute 1: 1 of 2 failed → down
    ]);

    const first = await loadAvailability([a.id, b.id, randomUUID()], at(3, 30));
    expect([...first.keys()].sort()).toEqual([a.id, b.id].sort()); // a rental not found is left out
    expect(await recordOf(a.id)).toEqual({ minutesMeasured: [2, 3], minutesDown: [], callsCheckedUntil: 3 });
    expect(await recordOf(b.id)).toEqual({ minutesMeasured: [1, 2], minutesDown: [1, 2], callsCheckedUntil: 3 });
    expect(first.get(b.id)).toMatchObject({ minutesElapsed: 4, minutesMeasured: 1, minutesDown: 1, uptimeBasisPoints: 7_500 });

    // The same read again changes nothing.
    await loadAvailability([a.id, b.id], at(3, 30));
    expect(await recordOf(a.id)).toMatchObject({ minutesMeasured: [2, 3], callsCheckedUntil: 3 });

    // Failed calls recorded late into minute 2 (already checked) are not counted again; minute 3,
    // ended now, is checked once.
    await insertCalls(a, [
      [at(2, 40), 500],
      [at(2, 50), 500],
    ]);
    const second = await loadAvailability([a.id], at(4, 0));
    expect(await recordOf(a.id)).toEqual({ minutesMeasured: [2, 4], minutesDown: [3, 4], callsCheckedUntil: 4 });
    expect(second.get(a.id)).toMatchObject({ minutesElapsed: 5, minutesMeasured: 2, minutesDown: 1, downMinutes: [at(3)] });
  });

  it("counts in an ended rental's final minute the calls that finished up to 60 s after its end", async () => {
    const rental = await hourRental();
    await insertCalls(rental, [[at(59, 50), 200]]);
    // Read 10 s after the end: the calls still in flight at the end have not finished yet.
    const early = await loadAvailability([rental.id], at(60, 10));
    expect(early.get(rental.id)).toMatchObject({ minutesElapsed: 60, minutesDown: 0 });

    await insertCalls(rental, [
      [at(60, 30), 502],
      [at(60, 59.9), 504],
      [at(61, 1), 502], // more than 60 s after the end: not the rental's
    ]);
    const final = await loadAvailability([rental.id], at(61, 5));
    expect(await recordOf(rental.id)).toEqual({ minutesMeasured: [59, 60], minutesDown: [59, 60], callsCheckedUntil: 60 });
    expect(final.get(rental.id)).toMatchObject({ minutesMeasured: 1, minutesDown: 1, downMinutes: [at(59)] });
  });

  it("counts the agent's answers sold per message in its rentals' minutes, never another agent's", async () => {
    const [a, b] = await Promise.all([hourRental(), hourRental()]);
    const paidCall = async (agentId: string, createdAt: Date, statusCode: number) => {
      const payment = await db.messagePayment.create({
        data: {
          agentId,
          payer: `0x${randomUUID().replaceAll("-", "").padEnd(40, "0")}`,
          nonce: `0x${randomUUID().replaceAll("-", "").padEnd(64, "0")}`,
          payoutAddress: "0x0000000000000000000000000000000000000001",
          priceMicro: 10_000n,
          feeMicro: 500n,
          validAfter: 0n,
          validBefore: 1n,
          signature: "0x",
          status: statusCode === 200 ? "settled" : "unpaid",
        },
      });
      await db.chatCall.create({
        data: { messagePaymentId: payment.id, agentId, statusCode, latencyMs: 12, requestBytes: 40, responseBytes: 0, createdAt },
      });
    };
    await insertCalls(a, [[at(4, 10), 200]]);
    await paidCall(a.agentId, at(4, 20), 502); // minute 4: 1 of 2 failed → down
    await paidCall(a.agentId, at(5, 5), 200); // minute 5: measured by a paid answer alone → up
    await paidCall(b.agentId, at(6, 5), 503); // b's agent: nothing to do with a

    await loadAvailability([a.id, b.id], at(7, 0));
    // Run lists: [start, end) pairs of minutes.
    expect(await recordOf(a.id)).toEqual({ minutesMeasured: [4, 6], minutesDown: [4, 5], callsCheckedUntil: 7 });
    expect(await recordOf(b.id)).toEqual({ minutesMeasured: [6, 7], minutesDown: [6, 7], callsCheckedUntil: 7 });
  });

  it("gives an empty map for no rentals", async () => {
    expect((await loadAvailability([], at(0))).size).toBe(0);
  });
});
