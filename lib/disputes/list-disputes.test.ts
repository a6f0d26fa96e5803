// The dispute lists on the real database: what waits for a decision (oldest first), and the
// console's history of decided disputes (newest decision first, a page at a time).
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { DECIDED_PER_PAGE, listDecidedDisputes, listOpenDisputes } from "@/lib/disputes/list-disputes";
import { disputedRental } from "@/test/dispute-fixtures";
import { makeAgent } from "@/test/fixtures";
import { isolateDatabase } from "@/test/private-database";
import { makeRenterAccount, rentalOf } from "@/test/renter-fixtures";

// Both lists read every dispute there is: this file's own database.
isolateDatabase("list_disputes");

const at = (minutes: number) => new Date(Date.UTC(2026, 10, 20, 10, minutes));

describe("listOpenDisputes and listDecidedDisputes", () => {
  it("lists open disputes oldest first, and decided ones newest decision first, a page at a time, with their outcome and both sides' words", async () => {
    const agent = await makeAgent();
    const decidedCount = DECIDED_PER_PAGE + 3;
    const decided = [];
    for (let i = 0; i < decidedCount; i++) {
      decided.push(await disputedRental({ agent, openedAt: at(i), decided: { at: at(100 + i), refundMicro: BigInt(i) * 1000n } }));
    }
    const openLater = await disputedRental({ agent, openedAt: at(50) });
    const openEarlier = await disputedRental({ agent, openedAt: at(40), details: null });
    await db.dispute.update({
      where: { rentalId: decided[decidedCount - 1].rental.id },
      data: { ownerAnswer: "The agent was up; see the health checks.", ownerAnsweredAt: at(99) },
    });
    // A reason saved before any transaction: not a dispute yet, in neither list.
    const renter = await makeRenterAccount();
    const unopened = await rentalOf(agent, renter);
    await db.dispute.create({ data: { rentalId: unopened.id, reason: "other" } });

    expect((await listOpenDisputes()).map((d) => d.rental.ref)).toEqual([openEarlier.rental.ref, openLater.rental.ref]);

    const first = await listDecidedDisputes();
    expect(first.total).toBe(decidedCount);
    const newestFirst = decided.map((d) => d.rental.ref).reverse();
    expect(first.disputes.map((d) => d.rental.ref)).toEqual(newestFirst.slice(0, DECIDED_PER_PAGE));
    expect(first.disputes[0]).toMatchObject({
      reason: "not_responding",
      details: "It stopped answering.",
      ownerAnswer: "The agent was up; see the health checks.",
      ownerAnsweredAt: at(99),
      resolvedAt: at(100 + decidedCount - 1),
      resolvedBy: "arbiter",
      resolveTxHash: decided[decidedCount - 1].dispute.resolveTxHash,
      rental: {
        ref: decided[decidedCount - 1].rental.ref,
        renterAddress: decided[decidedCount - 1].rental.renterAddress,
        disputeRefundMicro: BigInt(decidedCount - 1) * 1000n,
      },
    });

    const second = await listDecidedDisputes(2);
    expect(second).toMatchObject({ total: decidedCount });
    expect(second.disputes.map((d) => d.rental.ref)).toEqual(newestFirst.slice(DECIDED_PER_PAGE));
    expect((await listDecidedDisputes(3)).disputes).toEqual([]);
  });
});
