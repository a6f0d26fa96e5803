// The owner's payout history: paid rentals released to them or refunded to the renter, by when
// the money moved (the chain's time and transaction), newest first; unpaid, running and other owners' rentals left out.
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { makeOwner, makeOwnerAgent, makeRental } from "@/test/fixtures";
import { listPayoutHistory } from "./list-payout-history";

const hash = () => `0x${randomBytes(32).toString("hex")}`;

async function paidRental(agentId: string, status: "completed" | "cancelled" | "active", endedDaysAgo: number) {
  const rental = await makeRental(agentId, { status, startsInSeconds: -(endedDaysAgo + 1) * 86_400 });
  return db.rental.update({ where: { id: rental.id }, data: { createTxHash: hash() } });
}

const NOW = Date.now();
const daysAgo = (days: number) => new Date(NOW - days * 86_400_000);

async function settled(rental: { id: string }, at: Date, txHash: string | null) {
  return db.rental.update({ where: { id: rental.id }, data: { settledAt: at, settleTxHash: txHash } });
}

describe("listPayoutHistory", () => {
  it("lists released and refunded paid rentals by when the money moved, with its transaction", async () => {
    const owner = await makeOwner();
    const agent = await makeOwnerAgent(owner.id, { listing: { name: "Ledger" } });
    const [releaseHash, refundHash] = [hash(), hash()];
    const released = await settled(await paidRental(agent.id, "completed", 5), daysAgo(4), releaseHash);
    // Refunded long before its scheduled end, which is still ahead: the refund's time is shown.
    const refunded = await makeRental(agent.id, { status: "cancelled", startsInSeconds: -3_600 });
    await db.rental.update({ where: { id: refunded.id }, data: { createTxHash: hash() } });
    await settled(refunded, daysAgo(0.01), refundHash);
    // Settled before the service kept the time, by a transaction it did not send: last, undated.
    const unknown = await paidRental(agent.id, "completed", 6);
    await paidRental(agent.id, "active", -1); // still running: not a payout yet
    await makeRental(agent.id, { status: "completed", startsInSeconds: -10 * 86_400 }); // never paid on chain
    await paidRental((await makeOwnerAgent((await makeOwner()).id)).id, "completed", 1); // someone else's

    const { entries, more } = await listPayoutHistory(owner.id);
    expect(more).toBe(false);
    expect(entries.map((e) => [e.escrowId, e.outcome, e.txHash, e.settledAt])).toEqual([
      [refunded.escrowId, "refunded", refundHash, daysAgo(0.01)],
      [released.escrowId, "released", releaseHash, daysAgo(4)],
      [unknown.escrowId, "released", null, null],
    ]);
    expect(entries[0].settledAt!.getTime()).toBeLessThan(refunded.endsAt.getTime());
    expect(entries[1]).toMatchObject({ agentName: "Ledger", durationType: "day", amountMicro: 10_000_000n });
  });
});
