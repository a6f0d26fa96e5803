// The owner's payout history: paid rentals released to them (with the confirmed release's hash)
// or refunded to the renter, newest first; unpaid, running and other owners' rentals left out.
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { makeOwner, makeOwnerAgent, makeRental } from "@/test/fixtures";
import { listPayoutHistory } from "./list-payout-history";

const hash = () => `0x${randomBytes(32).toString("hex")}`;

async function paidRental(agentId: string, status: "completed" | "cancelled" | "active", endedDaysAgo: number, releaseHash?: string) {
  const rental = await makeRental(agentId, { status, startsInSeconds: -(endedDaysAgo + 1) * 86_400 });
  const releaseTx = releaseHash
    ? await db.chainTransaction.create({
        data: {
          kind: "release",
          fromAddress: `0x${randomBytes(20).toString("hex")}`,
          nonce: 0,
          hash: releaseHash,
          status: "confirmed",
          confirmedAt: new Date(),
        },
      })
    : null;
  return db.rental.update({ where: { id: rental.id }, data: { createTxHash: hash(), releaseTxId: releaseTx?.id ?? null } });
}

describe("listPayoutHistory", () => {
  it("lists released and refunded paid rentals, newest first, with the release transaction", async () => {
    const owner = await makeOwner();
    const agent = await makeOwnerAgent(owner.id, { listing: { name: "Ledger" } });
    const released = hash();
    const older = await paidRental(agent.id, "completed", 5);
    const newer = await paidRental(agent.id, "completed", 1, released);
    const refunded = await paidRental(agent.id, "cancelled", 3);
    await paidRental(agent.id, "active", -1); // still running: not a payout yet
    await makeRental(agent.id, { status: "completed", startsInSeconds: -10 * 86_400 }); // never paid on chain
    await paidRental((await makeOwnerAgent((await makeOwner()).id)).id, "completed", 1); // someone else's

    const { entries, more } = await listPayoutHistory(owner.id);
    expect(more).toBe(false);
    expect(entries.map((e) => [e.escrowId, e.outcome, e.txHash])).toEqual([
      [newer.escrowId, "released", released],
      [refunded.escrowId, "refunded", null],
      [older.escrowId, "released", null],
    ]);
    expect(entries[0]).toMatchObject({ agentName: "Ledger", durationType: "day", amountMicro: 10_000_000n });
    expect(entries[0].paidAt).toBeInstanceOf(Date);
  });
});
