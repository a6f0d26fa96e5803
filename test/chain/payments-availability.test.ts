// Settlement by measured availability against a real chain (anvil) and the real database: the
// release sweep pays the renter back for down minutes beyond the guarantee, the owner the rest,
// the treasury the fee, exact to the micro-USDC, and records the down-minute list's hash on chain;
// both sides are told the uptime and the refund.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadAvailability } from "@/lib/availability/load-availability";
import { recordMinutes } from "@/lib/availability/record-minutes";
import { db } from "@/lib/db";
import { isolateDatabase } from "@/test/private-database";
import { chainDate, escrowAbi, FEE, type Payments, startPayments, treasury, USDC } from "./payments-harness";
import { type Paid, paidRental } from "./settlement-helpers";

// The sweep settles every ended rental of its database: this file keeps its own.
isolateDatabase("payments_availability");

const { releaseEndedRentals } = await import("@/lib/chain/release-ended-rentals");
const { syncEscrowEvents } = await import("@/lib/chain/sync-escrow-events");

const HOUR = 3_600;
const PRICE = 2n * USDC; // makePayableAgent's hourly price
const minutes = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

let p: Payments;

beforeAll(async () => {
  p = await startPayments({ secondsBehind: 12 * HOUR });
});
afterAll(() => p?.stop());

const sweep = async () => releaseEndedRentals({ now: await chainDate(p) });

async function settledEvent(r: Paid) {
  const [event] = await p.publicClient.getContractEvents({
    address: p.e.escrow,
    abi: escrowAbi,
    eventName: "RentalSettled",
    args: { id: r.chainId },
    fromBlock: 0n,
  });
  return event;
}

describe("settlement by measured availability", () => {
  it("a 60-minute rental with 15 down minutes at a 99% guarantee: the renter gets floor(P × 15/60) back, the owner the rest, the hash on chain is the API's", async () => {
    const email = `renter-${randomBytes(6).toString("hex")}@example.com`;
    const r = await paidRental(p, { email });
    const rental = await db.rental.findUniqueOrThrow({ where: { id: r.id } });
    expect(rental.guaranteePermille).toBe(990);
    // Every minute measured; three outages, 15 minutes in all.
    await recordMinutes([{ rentalId: r.id, measured: minutes(0, 60), down: [...minutes(5, 10), ...minutes(20, 27), 58, 59, 40] }]);

    const renterBefore = await p.e.balanceOf(r.renter.address);
    const ownerBefore = await p.e.balanceOf(r.payout);
    const treasuryBefore = await p.e.balanceOf(treasury.address);
    await p.increaseTime(HOUR);
    const summary = await sweep();
    expect(summary).toMatchObject({ sent: 1, completed: 1, failed: 0 });

    const refund = (PRICE * 15n) / 60n; // allowance floor(60 × 1 / 100) = 0
    expect(await p.e.balanceOf(r.renter.address)).toBe(renterBefore + refund);
    expect(await p.e.balanceOf(r.payout)).toBe(ownerBefore + PRICE - refund);
    expect(await p.e.balanceOf(treasury.address)).toBe(treasuryBefore + FEE);

    const terms = (await loadAvailability([r.id], await chainDate(p))).get(r.id)!;
    expect(terms).toMatchObject({ minutesTotal: 60, minutesDown: 15, refundMicro: refund });
    const event = await settledEvent(r);
    expect(event.args).toMatchObject({ refund, slaHash: terms.slaHash });
    const settled = await db.rental.findUniqueOrThrow({ where: { id: r.id } });
    expect(settled).toMatchObject({ status: "completed", availabilityRefundMicro: refund, slaHash: terms.slaHash });

    // The event reader sees the same settlement later: nothing changes, nobody is told twice.
    await syncEscrowEvents();
    expect(await db.rental.findUniqueOrThrow({ where: { id: r.id } })).toMatchObject({ availabilityRefundMicro: refund });
    const told = await db.email.findMany({ where: { idempotencyKey: { startsWith: `rental-ended:${r.id}:` } } });
    expect(told).toHaveLength(1);
    expect(told[0].text).toContain("The agent was up for 75% of the rental's 60 minutes (15 down), against its 99% uptime guarantee.");
    expect(told[0].text).toContain("0.50 USDC of the price was refunded to your wallet");
    const ownerNotices = await db.notification.findMany({ where: { rentalId: r.id, kind: "rental-paid-out" } });
    expect(ownerNotices).toEqual([expect.objectContaining({ accountId: r.agent.ownerId })]);
    expect(ownerNotices[0].body).toContain("You received 1.50 USDC: the price of 2.00 USDC less 0.50 USDC refunded");
    expect(ownerNotices[0].body).toContain(rental.ref);
    expect(ownerNotices[0].body).not.toContain(r.id.slice(0, 8));
  });

  it("no down minutes, or down minutes within the allowance: the owner gets the full price and the hash of the empty list is recorded", async () => {
    const r = await paidRental(p);
    await recordMinutes([{ rentalId: r.id, measured: minutes(0, 60), down: [] }]);
    const ownerBefore = await p.e.balanceOf(r.payout);
    await p.increaseTime(HOUR);
    expect(await sweep()).toMatchObject({ completed: 1 });
    expect(await p.e.balanceOf(r.payout)).toBe(ownerBefore + PRICE);
    const terms = (await loadAvailability([r.id], await chainDate(p))).get(r.id)!;
    expect((await settledEvent(r)).args).toMatchObject({ refund: 0n, slaHash: terms.slaHash });
    expect(await db.rental.findUniqueOrThrow({ where: { id: r.id } })).toMatchObject({ availabilityRefundMicro: 0n });
  });

  it("a rental whose agent was down the whole time refunds the whole price and never more", async () => {
    const r = await paidRental(p);
    await recordMinutes([{ rentalId: r.id, measured: minutes(0, 60), down: minutes(0, 60) }]);
    const renterBefore = await p.e.balanceOf(r.renter.address);
    const ownerBefore = await p.e.balanceOf(r.payout);
    await p.increaseTime(HOUR);
    expect(await sweep()).toMatchObject({ completed: 1 });
    expect(await p.e.balanceOf(r.renter.address)).toBe(renterBefore + PRICE);
    expect(await p.e.balanceOf(r.payout)).toBe(ownerBefore);
  });

  it("the calls rule is brought up to the end before settling: a last minute whose calls failed is refunded", async () => {
    const r = await paidRental(p);
    await recordMinutes([{ rentalId: r.id, measured: minutes(0, 60), down: [], callsCheckedUntil: 59 }]);
    const rental = await db.rental.findUniqueOrThrow({ where: { id: r.id } });
    const inLastMinute = new Date(rental.startsAt.getTime() + 59 * 60_000 + 10_000);
    const call = { rentalId: r.id, agentId: r.agent.id, latencyMs: 30_000, requestBytes: 5, responseBytes: 0, createdAt: inLastMinute };
    await db.chatCall.createMany({ data: [504, 502, 200].map((statusCode) => ({ ...call, statusCode })) });
    await p.increaseTime(HOUR);
    expect(await sweep()).toMatchObject({ completed: 1 });
    expect((await settledEvent(r)).args.refund).toBe((PRICE * 1n) / 60n);
  });
});
