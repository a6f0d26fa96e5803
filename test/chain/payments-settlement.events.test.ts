import { randomUUID } from "node:crypto";
import type { Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { confirmRentalPayment } from "@/lib/rentals/confirm-rental-payment";
import { quoteRental } from "@/lib/rentals/quote-rental";
import { renterRequest } from "@/test/api-requests";
import { isolateDatabase } from "@/test/private-database";
import {
  arbiter,
  blockTimeOf,
  CRON_SECRET,
  chainDate,
  cronRequest,
  escrowAbi,
  FEE,
  iso,
  makePayableAgent,
  newRenter,
  operator,
  other,
  type Payments,
  send,
  startPayments,
  treasury,
  USDC,
} from "./payments-harness";
import { notices, type Paid, paidRental, releases } from "./settlement-helpers";

// Both this file and its sibling read escrow events into the one cursor row: each keeps its own
// database, so neither sees the other's chain.
isolateDatabase("payments_settlement_events");

// The cron route calls the sweep without a clock: give it the chain's.
const scope = vi.hoisted(() => ({ now: undefined as Date | undefined }));
vi.mock("@/lib/chain/release-ended-rentals", async (importOriginal) => {
  const real = await importOriginal<typeof import("@/lib/chain/release-ended-rentals")>();
  return {
    ...real,
    releaseEndedRentals: (options: Parameters<typeof real.releaseEndedRentals>[0] = {}) =>
      real.releaseEndedRentals({ now: scope.now, ...options }),
  };
});

const { syncEscrowEvents } = await import("@/lib/chain/sync-escrow-events");
const { REORG_WINDOW } = await import("@/lib/chain/undo-reorgs");
const { holdsArbiterRole } = await import("@/lib/chain/holds-arbiter-role");
const releaseRoute = await import("@/app/api/cron/release-rentals/route");
const syncRoute = await import("@/app/api/cron/sync-escrow/route");
const { GET: statusGet } = await import("@/app/api/v1/status/route");

const HOUR = 3_600;
const PRICE = 2n * USDC; // makePayableAgent's hourly price
const START_BALANCE = 1_000n * USDC; // newRenter's

let p: Payments;

beforeAll(async () => {
  // Well behind the wall clock even after the hours this file travels (one per ended rental batch).
  p = await startPayments({ secondsBehind: 12 * HOUR });
});
afterAll(() => p?.stop());

/** The sweep at the chain's time plus `seconds`. */

const rental = (id: string) => db.rental.findUniqueOrThrow({ where: { id }, include: { releaseTx: true } });
const statusOf = async (id: string) => (await rental(id)).status;
const balance = (who: Hex) => p.e.balanceOf(who);
const operatorNonce = () => p.publicClient.getTransactionCount({ address: operator.address });
const cursor = async () => (await db.chainCursor.findUnique({ where: { name: "escrow-events" } }))?.blockNumber;

describe("event reader", () => {
  it("activates a rental whose confirm never came; the cursor moves forward; a second run changes nothing", async () => {
    await syncEscrowEvents(); // catch up with earlier tests
    const r = await paidRental(p, { confirm: false });
    expect(await statusOf(r.id)).toBe("pending");
    const before = await cursor();

    const summary = await syncEscrowEvents();
    expect(summary).toMatchObject({
      events: expect.any(Number),
      activated: 1,
      disputed: 0,
      cancelled: 0,
      completed: 0,
    });
    const t = await blockTimeOf(p, r.receipt.transactionHash);
    const row = await rental(r.id);
    expect(row).toMatchObject({ status: "active", createTxHash: r.receipt.transactionHash.toLowerCase() });
    expect([row.startsAt.toISOString(), row.endsAt.toISOString()]).toEqual([iso(t), iso(t + BigInt(HOUR))]);
    const head = await p.publicClient.getBlockNumber({ cacheTime: 0 });
    expect(await cursor()).toBe(head);
    expect(head).toBeGreaterThan(before!);
    expect(BigInt(summary.toBlock)).toBe(head);
    expect(BigInt(summary.fromBlock)).toBe(before! + 1n);

    expect(await syncEscrowEvents()).toMatchObject({ events: 0, activated: 0 });
    expect(await cursor()).toBe(head);
    expect(await rental(r.id)).toEqual(row);
    // The browser comes back late: the same answer, nothing changes.
    expect(await confirmRentalPayment(r.receipt.transactionHash, { claimSecret: r.claimSecret })).toMatchObject({
      id: r.id,
      status: "active",
      starts_at: iso(t),
    });
    expect(await rental(r.id)).toEqual(row);
  });

  async function disputed() {
    const email = `renter-${randomUUID()}@example.com`;
    const r = { ...(await paidRental(p, { email })), renterEmail: email };
    // The renter's reason, saved before the transaction, as the dashboard does.
    await db.dispute.create({ data: { rentalId: r.id, reason: "not_responding", details: "No answer since noon." } });
    const opened = await send(p, r.renter, p.e.escrow, escrowAbi, "openDispute", [r.chainId]);
    expect(await syncEscrowEvents()).toMatchObject({ disputed: 1 });
    expect(await statusOf(r.id)).toBe("disputed");
    const res = await statusGet(renterRequest("status", { code: r.id.slice(0, 8) }));
    expect((await res.json()).rental.status).toBe("disputed");
    const dispute = await db.dispute.findUniqueOrThrow({ where: { rentalId: r.id } });
    expect(dispute).toMatchObject({ reason: "not_responding", details: "No answer since noon.", openTxHash: opened.transactionHash });
    expect(dispute.openedAt).toEqual(new Date(Number(await blockTimeOf(p, opened.transactionHash)) * 1000));
    // The owner is told once, however often the event is read.
    await syncEscrowEvents();
    await db.chainCursor.deleteMany();
    await syncEscrowEvents();
    expect((await db.dispute.findUniqueOrThrow({ where: { rentalId: r.id } })).openedAt).toEqual(dispute.openedAt);
    const told = await db.notification.findMany({ where: { rentalId: r.id, kind: "dispute-opened" } });
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({ accountId: r.agent.ownerId, title: `A renter disputed a rental of "${r.agent.name}"` });
    expect(told[0].body).toContain("The agent is not responding");
    expect(await db.email.count({ where: { idempotencyKey: { startsWith: `dispute-opened:${r.id}:` } } })).toBe(
      (await db.account.findUniqueOrThrow({ where: { id: r.agent.ownerId } })).email ? 1 : 0,
    );
    return r;
  }

  /** Who was told the outcome: the notifications of both sides, and the renter's e-mail. */
  async function outcomeNotices(r: Paid) {
    const notifications = await db.notification.findMany({
      where: { rentalId: r.id, kind: "dispute-resolved" },
      orderBy: { accountId: "asc" },
    });
    const emails = await db.email.findMany({ where: { idempotencyKey: { startsWith: `dispute-resolved:${r.id}:` } } });
    return { notifications, emails };
  }

  it("a dispute the arbiter refunds: cancelled, the renter refunded price + fee in full", async () => {
    const r = await disputed();
    expect(await balance(r.renter.address)).toBe(START_BALANCE - PRICE - FEE);
    const resolved = await p.e.send(arbiter.address, "resolveDispute", [r.chainId, PRICE]);
    expect(await syncEscrowEvents()).toMatchObject({ cancelled: 1, completed: 0 });
    expect(await statusOf(r.id)).toBe("cancelled");
    // The refund is dated by the outcome's block (the payouts history), not the rental's end.
    expect(await rental(r.id)).toMatchObject({
      settledAt: new Date(Number(await blockTimeOf(p, resolved.transactionHash)) * 1000),
      settleTxHash: resolved.transactionHash.toLowerCase(),
    });
    expect((await db.rental.findUniqueOrThrow({ where: { id: r.id } })).disputeRefundMicro).toBe(PRICE);
    expect(await balance(r.renter.address)).toBe(START_BALANCE);
    expect(await balance(r.payout)).toBe(0n);
    expect((await notices(r)).notifications).toEqual([]);
    expect(await syncEscrowEvents()).toMatchObject({ events: 0, cancelled: 0 });
    expect(await db.dispute.findUniqueOrThrow({ where: { rentalId: r.id } })).toMatchObject({ resolvedBy: "arbiter" });
    const told = await outcomeNotices(r);
    expect(told.notifications.map((n) => n.title)).toEqual(["Dispute decided: full refund", "Dispute decided: full refund"]);
    expect(told.emails.find((e) => e.to === r.renterEmail)?.text).toContain("3.00 USDC (the price and the fee) went back to your wallet");
  });

  it("a dispute the arbiter rejects before the end: active again, nothing paid yet", async () => {
    const r = await disputed();
    await p.e.send(arbiter.address, "resolveDispute", [r.chainId, 0n]);
    expect(await syncEscrowEvents()).toMatchObject({ completed: 0, cancelled: 0 });
    expect(await statusOf(r.id)).toBe("active");
    expect((await db.rental.findUniqueOrThrow({ where: { id: r.id } })).disputeRefundMicro).toBe(0n);
    expect(await balance(r.payout)).toBe(0n);
    const renterNotice = (await outcomeNotices(r)).notifications.find((n) => n.accountId !== r.agent.ownerId);
    expect(renterNotice?.body).toContain("the rental runs on until it ends");
  });

  it("a dispute the arbiter splits: completed, the renter refunded its part, the owner paid the rest, told once", async () => {
    const r = await disputed();
    const treasuryBefore = await balance(treasury.address);
    const refund = PRICE / 4n;
    await p.e.send(arbiter.address, "resolveDispute", [r.chainId, refund]);
    expect(await syncEscrowEvents()).toMatchObject({ completed: 1, cancelled: 0 });
    expect(await statusOf(r.id)).toBe("completed");
    expect((await db.rental.findUniqueOrThrow({ where: { id: r.id } })).disputeRefundMicro).toBe(refund);
    expect(await balance(r.payout)).toBe(PRICE - refund);
    expect((await balance(treasury.address)) - treasuryBefore).toBe(FEE);
    expect(await balance(r.renter.address)).toBe(START_BALANCE - PRICE - FEE + refund);
    // The outcome says what the release would not: the rental-ended notice is not sent.
    expect((await notices(r)).notifications).toHaveLength(0);
    expect(await syncEscrowEvents()).toMatchObject({ events: 0, completed: 0 });
    const told = await outcomeNotices(r);
    expect(told.notifications).toHaveLength(2);
    const owner = told.notifications.find((n) => n.accountId === r.agent.ownerId);
    expect(owner?.body).toBe(
      "The arbiter decided the dispute with a partial refund: 0.50 USDC went back to the renter and 1.50 USDC was paid to you. The rental is complete.",
    );
    expect(await db.dispute.findUniqueOrThrow({ where: { rentalId: r.id } })).toMatchObject({ resolvedBy: "arbiter" });
  });

  it("a dispute the owner accepts: cancelled, refunded in full, recorded as the owner's decision", async () => {
    const r = await disputed();
    await p.testClient.impersonateAccount({ address: r.payout });
    await p.testClient.setBalance({ address: r.payout, value: 10n ** 18n });
    await p.e.send(r.payout, "acceptDispute", [r.chainId]);
    expect(await syncEscrowEvents()).toMatchObject({ cancelled: 1 });
    expect(await statusOf(r.id)).toBe("cancelled");
    expect(await balance(r.renter.address)).toBe(START_BALANCE);
    expect(await db.dispute.findUniqueOrThrow({ where: { rentalId: r.id } })).toMatchObject({ resolvedBy: "owner" });
    const renterNotice = (await outcomeNotices(r)).notifications.find((n) => n.accountId !== r.agent.ownerId);
    expect(renterNotice?.body).toMatch(/^The owner accepted the dispute with a full refund/);
  });

  it("removes quotes nobody paid once their deadline is older than the reorg window on chain, and keeps paid rentals", async () => {
    await syncEscrowEvents();
    const renter = await newRenter(p);
    const { agent } = await makePayableAgent();
    const unpaid = await quoteRental(
      { agentId: agent.id, durationType: "hour", channel: "API", renter: renter.address },
      await chainDate(p),
    );
    const paid = await paidRental(p, { confirm: false });
    expect(await syncEscrowEvents()).toMatchObject({ activated: 1, expiredQuotes: 0 });
    expect(await statusOf(unpaid.rentalId)).toBe("pending"); // still redeemable until its deadline

    await p.increaseTime(16 * 60); // QUOTE_TTL_SECONDS is 15 minutes
    // Past its deadline, but a reorg the reader would undo could still bring a payment for it.
    expect(await syncEscrowEvents()).toMatchObject({ expiredQuotes: 0 });
    expect(await statusOf(unpaid.rentalId)).toBe("pending");
    await p.testClient.mine({ blocks: Number(REORG_WINDOW) });
    expect((await syncEscrowEvents()).expiredQuotes).toBeGreaterThanOrEqual(1);
    expect(await db.rental.findUnique({ where: { id: unpaid.rentalId } })).toBeNull();
    expect(await statusOf(paid.id)).toBe("active");
  });

  it("an operator's cancel: cancelled, the renter refunded in full", async () => {
    const r = await paidRental(p);
    await p.e.send(operator.address, "cancel", [r.chainId]);
    expect(await syncEscrowEvents()).toMatchObject({ cancelled: 1 });
    expect(await statusOf(r.id)).toBe("cancelled");
    expect(await balance(r.renter.address)).toBe(START_BALANCE);
    expect(await balance(r.payout)).toBe(0n);
  });
  it("a dispute nobody decides: after 14 days anyone settles it as a full refund, recorded as expired", async () => {
    const r = await disputed();
    await p.increaseTime(14 * 24 * HOUR + 1);
    await p.e.send(other.address, "settleExpiredDispute", [r.chainId]);
    expect(await syncEscrowEvents()).toMatchObject({ cancelled: 1 });
    expect(await statusOf(r.id)).toBe("cancelled");
    expect(await balance(r.renter.address)).toBe(START_BALANCE);
    expect(await db.dispute.findUniqueOrThrow({ where: { rentalId: r.id } })).toMatchObject({ resolvedBy: "expired" });
    const renterNotice = (await outcomeNotices(r)).notifications.find((n) => n.accountId !== r.agent.ownerId);
    expect(renterNotice?.body).toMatch(/^Nobody decided the dispute within 14 days, so it was settled with a full refund/);
  });

  it("reads ARBITER_ROLE on the escrow (the arbiter console asks at every request)", async () => {
    expect(await holdsArbiterRole(arbiter.address)).toBe(true);
    expect(await holdsArbiterRole(other.address)).toBe(false);
  });
});

describe("cron routes", () => {
  const routes = { "release-rentals": releaseRoute, "sync-escrow": syncRoute } as const;

  it("401 without the secret (or with a wrong one), running nothing", async () => {
    const [nonce, at] = [await operatorNonce(), await cursor()];
    for (const [path, route] of Object.entries(routes) as [keyof typeof routes, (typeof routes)[keyof typeof routes]][]) {
      for (const authorization of [undefined, "Bearer wrong-secret-but-long-enough", CRON_SECRET]) {
        for (const handler of [route.GET, route.POST]) {
          const res = await handler(cronRequest(path, authorization));
          expect(res.status).toBe(401);
          expect(await res.json()).toEqual({ error: expect.any(String) });
        }
      }
    }
    expect(await operatorNonce()).toBe(nonce);
    expect(await cursor()).toBe(at);
  });

  it("200 with the run's summary", async () => {
    const r = await paidRental(p, { confirm: false });
    const synced = await syncRoute.GET(cronRequest("sync-escrow", `Bearer ${CRON_SECRET}`));
    expect(synced.status).toBe(200);
    expect(await synced.json()).toEqual({
      fromBlock: expect.stringMatching(/^\d+$/),
      toBlock: expect.stringMatching(/^\d+$/),
      events: expect.any(Number),
      activated: 1,
      extended: 0,
      disputed: 0,
      cancelled: 0,
      completed: 0,
      expiredQuotes: 0,
      rewoundTo: null,
      undone: 0,
    });
    expect(await statusOf(r.id)).toBe("active");

    await p.increaseTime(HOUR);
    scope.now = await chainDate(p);
    try {
      const released = await releaseRoute.POST(cronRequest("release-rentals", `Bearer ${CRON_SECRET}`));
      expect(released.status).toBe(200);
      const body = await released.json();
      expect(body).toEqual({
        completedWithoutEscrow: expect.any(Number),
        claimed: expect.any(Number),
        sent: 1,
        replaced: 0,
        completed: expect.any(Number),
        failed: 0,
        reconciled: 0,
        backedOff: 0,
        gaveUp: 0,
        filled: 0,
        waitingForFees: false,
        skipped: false,
      });
      expect(body.completed).toBeGreaterThanOrEqual(1);
    } finally {
      scope.now = undefined;
    }
    expect(await statusOf(r.id)).toBe("completed");
    expect(await releases(p, r)).toBe(1);
    expect(await balance(r.payout)).toBe(PRICE);
  });
});
