// Settlement against a real chain (anvil) and the real database: the release sweep (exactly-once
// payouts and notices, two sweeps at once, a stuck transaction replaced, a rotated operator key, a
// nonce taken by another transaction), the event reader (a lost confirm, disputes both ways, an
// operator's cancel) and the two cron routes.
//
// The chain only moves forward here (no snapshots): the database keeps the sweep's nonces and the
// reader's cursor, which must keep matching it. Its clock runs hours behind the wall clock and every
// sweep is given the chain's time, so the sweep (which completes every ended rental of the shared
// database) leaves other test files' rentals alone.
import { randomBytes } from "node:crypto";
import { type Hex, TransactionReceiptNotFoundError, parseTransaction } from "viem";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { confirmRentalPayment } from "@/lib/rentals/confirm-rental-payment";
import { quoteRental } from "@/lib/rentals/quote-rental";
import { Status } from "./escrow";
import {
  CRON_SECRET,
  FEE,
  type Payments,
  USDC,
  arbiter,
  blockTimeOf,
  chainDate,
  cronRequest,
  escrowAbi,
  iso,
  makePayableAgent,
  newRenter,
  operator,
  other,
  pay,
  privateKeyOf,
  send,
  startPayments,
  treasury,
} from "./payments-harness";
import { renterRequest } from "@/test/api-requests";

// The cron route calls the sweep without a clock: give it the chain's.
const scope = vi.hoisted(() => ({ now: undefined as Date | undefined }));
vi.mock("@/lib/chain/release-ended-rentals", async (importOriginal) => {
  const real = await importOriginal<typeof import("@/lib/chain/release-ended-rentals")>();
  return { ...real, releaseEndedRentals: (options: Parameters<typeof real.releaseEndedRentals>[0] = {}) => real.releaseEndedRentals({ now: scope.now, ...options }) };
});

const { releaseEndedRentals } = await import("@/lib/chain/release-ended-rentals");
const { syncEscrowEvents } = await import("@/lib/chain/sync-escrow-events");
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

/** A rental of a fresh agent by a fresh renter, quoted at the chain's time and paid (approve); confirmed unless told. */
async function paidRental(options: { email?: string; confirm?: boolean } = {}) {
  const renter = await newRenter(p, { email: options.email });
  const { agent, payout } = await makePayableAgent();
  const quoted = await quoteRental({ agentId: agent.id, durationType: "hour", channel: "API", renter: renter.address }, await chainDate(p));
  const receipt = await pay(p, renter, quoted);
  if (options.confirm !== false) expect((await confirmRentalPayment(receipt.transactionHash)).status).toBe("active");
  return { id: quoted.rentalId, chainId: quoted.quote.rentalId, claimSecret: quoted.claimSecret, renter, agent, payout, receipt };
}
type Paid = Awaited<ReturnType<typeof paidRental>>;

/** The sweep at the chain's time plus `seconds`. */
async function sweep(seconds = 0, options: { waitMs?: number } = {}) {
  return releaseEndedRentals({ now: new Date((await chainDate(p)).getTime() + seconds * 1000), ...options });
}

const rental = (id: string) => db.rental.findUniqueOrThrow({ where: { id }, include: { releaseTx: true } });
const statusOf = async (id: string) => (await rental(id)).status;
const balance = (who: Hex) => p.e.balanceOf(who);
const operatorNonce = () => p.publicClient.getTransactionCount({ address: operator.address });
const cursor = async () => (await db.chainCursor.findUnique({ where: { name: "escrow-events" } }))?.blockNumber;

/** A time the sweep recorded: its `now` plus the few milliseconds the run had taken. */
// The sweep's clock starts at the `now` it is given and moves with real time; the chain (and so
// `now`) runs 12 hours behind the wall clock. A recorded time after `now` and hours before the
// wall clock is on the sweep's clock, however slowly the machine ran in between.
function expectOnSweepClock(recorded: Date, now: Date) {
  expect(recorded.getTime() - now.getTime()).toBeGreaterThanOrEqual(0);
  expect(Date.now() - recorded.getTime()).toBeGreaterThan(6 * HOUR * 1000);
}

/** How many RentalReleased events the escrow emitted for a rental, ever. */
async function releases(r: Paid): Promise<number> {
  const events = await p.publicClient.getContractEvents({ address: p.e.escrow, abi: escrowAbi, eventName: "RentalReleased", args: { id: r.chainId }, fromBlock: 0n });
  return events.length;
}

async function notices(r: Paid) {
  const [notifications, emails] = await Promise.all([
    db.notification.findMany({ where: { rentalId: r.id } }),
    db.email.findMany({ where: { idempotencyKey: `rental-ended:${r.id}` } }),
  ]);
  return { notifications, emails };
}

describe("release sweep", () => {
  it("after ends_at: owner gets exactly the price, treasury the fee, the renter one notice; a second run does nothing", async () => {
    const email = `renter-${randomBytes(6).toString("hex")}@example.com`;
    const r = await paidRental({ email });
    const treasuryBefore = await balance(treasury.address);

    // Running: the sweep leaves it alone.
    await sweep();
    expect(await statusOf(r.id)).toBe("active");

    await p.increaseTime(HOUR);
    const summary = await sweep();
    expect(summary).toMatchObject({ sent: 1, completed: 1, replaced: 0, failed: 0, skipped: false });
    expect(summary.claimed).toBeGreaterThanOrEqual(1);

    const done = await rental(r.id);
    expect(done.status).toBe("completed");
    expect(done.releaseTx).toMatchObject({ kind: "release", status: "confirmed", fromAddress: operator.address.toLowerCase(), replacedHashes: [], attempts: 0 });
    expect(done.releaseTx!.nonce).toEqual(expect.any(Number));
    expect(done.releaseTx!.confirmedAt).toBeInstanceOf(Date);
    const tx = await p.publicClient.getTransaction({ hash: done.releaseTx!.hash as Hex });
    expect([tx.from.toLowerCase(), tx.nonce]).toEqual([operator.address.toLowerCase(), done.releaseTx!.nonce]);
    expect(await balance(r.payout)).toBe(PRICE);
    expect((await balance(treasury.address)) - treasuryBefore).toBe(FEE);
    expect((await p.e.rental(r.chainId)).status).toBe(Status.Released);
    expect(await releases(r)).toBe(1);

    const renterAccount = await db.account.findUniqueOrThrow({ where: { walletAddress: r.renter.address.toLowerCase() } });
    const first = await notices(r);
    expect(first.notifications).toEqual([expect.objectContaining({ accountId: renterAccount.id, kind: "rental-ended" })]);
    expect(first.emails).toEqual([expect.objectContaining({ to: email, subject: expect.stringContaining("has ended") })]);

    const nonce = await operatorNonce();
    await sweep(60);
    await sweep(120);
    expect(await operatorNonce()).toBe(nonce); // nothing sent
    expect(await rental(r.id)).toEqual(done);
    expect(await notices(r)).toEqual(first);
    expect(await releases(r)).toBe(1);
    expect(await balance(r.payout)).toBe(PRICE);
  });

  it("two sweeps started at once release each rental exactly once", async () => {
    const rentals = [await paidRental(), await paidRental()];
    await p.increaseTime(HOUR);
    const [treasuryBefore, nonce] = await Promise.all([balance(treasury.address), operatorNonce()]);

    const now = await chainDate(p);
    const [a, b] = await Promise.all([releaseEndedRentals({ now }), releaseEndedRentals({ now })]);

    expect(a.completed + b.completed).toBe(2);
    expect(a.failed + b.failed).toBe(0);
    expect(await operatorNonce()).toBe(nonce + 1); // one releaseMany between them
    for (const r of rentals) {
      expect(await statusOf(r.id)).toBe("completed");
      expect(await releases(r)).toBe(1);
      expect(await balance(r.payout)).toBe(PRICE);
      expect((await notices(r)).notifications).toHaveLength(1);
    }
    expect((await balance(treasury.address)) - treasuryBefore).toBe(2n * FEE);
  });

  it("a stuck transaction is replaced (same nonce, higher fees) after 90 s, and settled once mined", async () => {
    const r = await paidRental();
    await p.increaseTime(HOUR);
    const now = (await chainDate(p)).getTime();
    const at = (seconds: number) => new Date(now + seconds * 1000);

    await p.testClient.setAutomine(false);
    try {
      const sent = await releaseEndedRentals({ now: at(0), waitMs: 300 });
      expect(sent).toMatchObject({ sent: 1, completed: 0, replaced: 0 });
      const stuck = (await rental(r.id)).releaseTx!;
      expect(stuck).toMatchObject({ status: "sent", attempts: 0 });
      expectOnSweepClock(stuck.sentAt!, at(0)); // the sweep's clock, not the wall clock
      const oldHash = stuck.hash as Hex;

      // Not yet 90 s: re-broadcast only.
      expect(await releaseEndedRentals({ now: at(30), waitMs: 0 })).toMatchObject({ replaced: 0, completed: 0 });
      expect((await rental(r.id)).releaseTx).toMatchObject({ hash: oldHash, attempts: 0 });

      const later = await releaseEndedRentals({ now: at(120), waitMs: 0 });
      expect(later).toMatchObject({ replaced: 1, completed: 0 });
      const replaced = (await rental(r.id)).releaseTx!;
      expect(replaced).toMatchObject({ status: "sent", nonce: stuck.nonce, attempts: 1, replacedHashes: [oldHash] });
      expectOnSweepClock(replaced.sentAt!, at(120));
      expect(replaced.hash).not.toBe(oldHash);
      const [before, after] = [parseTransaction(stuck.rawTx as Hex), parseTransaction(replaced.rawTx as Hex)];
      expect(after.nonce).toBe(stuck.nonce);
      expect([after.data, after.gas]).toEqual([before.data, before.gas]);
      expect(after.maxFeePerGas! > before.maxFeePerGas!).toBe(true);
      expect(after.maxPriorityFeePerGas! > before.maxPriorityFeePerGas!).toBe(true);

      await p.testClient.mine({ blocks: 1 });
      await expect(p.publicClient.getTransactionReceipt({ hash: oldHash })).rejects.toBeInstanceOf(TransactionReceiptNotFoundError);
      expect((await p.publicClient.getTransactionReceipt({ hash: replaced.hash as Hex })).status).toBe("success");
    } finally {
      await p.testClient.setAutomine(true);
    }

    expect(await sweep(150)).toMatchObject({ completed: 1, failed: 0 });
    const settled = await rental(r.id);
    expect(settled.status).toBe("completed");
    expect(settled.releaseTx).toMatchObject({ status: "confirmed", attempts: 1 });
    expect(await releases(r)).toBe(1);
    expect(await balance(r.payout)).toBe(PRICE);
    expect((await notices(r)).notifications).toHaveLength(1);
    expect(await sweep(210)).toMatchObject({ completed: 0, replaced: 0 });
  });

  it("a transaction stuck under a previous operator key is given up after 90 s; the new key releases its rentals", async () => {
    const r = await paidRental();
    await p.increaseTime(HOUR);
    const now = (await chainDate(p)).getTime();
    const at = (seconds: number) => new Date(now + seconds * 1000);
    const oldKey = env.OPERATOR_PRIVATE_KEY;

    await p.testClient.setAutomine(false);
    try {
      expect(await releaseEndedRentals({ now: at(0), waitMs: 300 })).toMatchObject({ sent: 1 });
      const stuck = (await rental(r.id)).releaseTx!;
      Object.assign(env, { OPERATOR_PRIVATE_KEY: privateKeyOf(other) }); // the key is rotated

      const run = await releaseEndedRentals({ now: at(120), waitMs: 0 });
      expect(run).toMatchObject({ failed: 1, replaced: 0, sent: 1 });
      expect(await db.chainTransaction.findUniqueOrThrow({ where: { id: stuck.id } })).toMatchObject({
        status: "failed", hash: stuck.hash, replacedHashes: [], error: expect.stringMatching(/previous operator key/),
      });
      expect((await rental(r.id)).releaseTx).toMatchObject({ status: "sent", fromAddress: other.address.toLowerCase() });
      await p.testClient.mine({ blocks: 1 });
    } finally {
      Object.assign(env, { OPERATOR_PRIVATE_KEY: oldKey });
      await p.testClient.setAutomine(true);
    }
    // Both transactions were mined; whichever ran second skipped the rental. The sweep completes
    // it from its own receipt, or frees it and the event reader completes it from the chain.
    await sweep(120);
    await syncEscrowEvents();
    expect(await statusOf(r.id)).toBe("completed");
    expect(await releases(r)).toBe(1);
    expect(await balance(r.payout)).toBe(PRICE);
  });

  it("a transaction whose nonce another transaction took is marked failed and its rentals released by a new one", async () => {
    const r = await paidRental();
    await p.increaseTime(HOUR);
    await p.testClient.setAutomine(false);
    let lost: { id: string; nonce: number };
    try {
      expect(await sweep(0, { waitMs: 300 })).toMatchObject({ sent: 1 });
      lost = (await rental(r.id)).releaseTx!;
      // Someone with the operator key outbids it with another transaction at the same nonce.
      await p.walletClient.sendTransaction({
        account: operator.address, to: operator.address, value: 0n, nonce: lost.nonce, maxFeePerGas: 10n ** 12n, maxPriorityFeePerGas: 10n ** 11n,
      });
      await p.testClient.mine({ blocks: 1 });
    } finally {
      await p.testClient.setAutomine(true);
    }
    expect(await statusOf(r.id)).toBe("active");

    expect(await sweep(10)).toMatchObject({ failed: 1, sent: 1, completed: 1 });
    expect(await db.chainTransaction.findUniqueOrThrow({ where: { id: lost.id } })).toMatchObject({ status: "failed", error: "nonce used by another transaction" });
    const done = await rental(r.id);
    expect(done.status).toBe("completed");
    expect(done.releaseTx).toMatchObject({ status: "confirmed", nonce: lost.nonce + 1 });
    expect(await releases(r)).toBe(1);
    expect(await balance(r.payout)).toBe(PRICE);
  });
});

describe("event reader", () => {
  it("activates a rental whose confirm never came; the cursor moves forward; a second run changes nothing", async () => {
    await syncEscrowEvents(); // catch up with earlier tests
    const r = await paidRental({ confirm: false });
    expect(await statusOf(r.id)).toBe("pending");
    const before = await cursor();

    const summary = await syncEscrowEvents();
    expect(summary).toMatchObject({ events: expect.any(Number), activated: 1, disputed: 0, cancelled: 0, completed: 0 });
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
    expect(await confirmRentalPayment(r.receipt.transactionHash, { claimSecret: r.claimSecret })).toMatchObject({ id: r.id, status: "active", starts_at: iso(t) });
    expect(await rental(r.id)).toEqual(row);
  });

  async function disputed() {
    const r = await paidRental();
    await send(p, r.renter, p.e.escrow, escrowAbi, "openDispute", [r.chainId]);
    expect(await syncEscrowEvents()).toMatchObject({ disputed: 1 });
    expect(await statusOf(r.id)).toBe("disputed");
    const res = await statusGet(renterRequest("status", { code: r.id.slice(0, 8) }));
    expect((await res.json()).rental.status).toBe("disputed");
    return r;
  }

  it("a dispute the arbiter refunds: cancelled, the renter refunded price + fee in full", async () => {
    const r = await disputed();
    expect(await balance(r.renter.address)).toBe(START_BALANCE - PRICE - FEE);
    await p.e.send(arbiter.address, "resolveDispute", [r.chainId, true]);
    expect(await syncEscrowEvents()).toMatchObject({ cancelled: 1, completed: 0 });
    expect(await statusOf(r.id)).toBe("cancelled");
    expect(await balance(r.renter.address)).toBe(START_BALANCE);
    expect(await balance(r.payout)).toBe(0n);
    expect((await notices(r)).notifications).toEqual([]);
    expect(await syncEscrowEvents()).toMatchObject({ events: 0, cancelled: 0 });
  });

  it("a dispute the arbiter releases: completed, the owner paid, the renter told once", async () => {
    const r = await disputed();
    const treasuryBefore = await balance(treasury.address);
    await p.e.send(arbiter.address, "resolveDispute", [r.chainId, false]);
    expect(await syncEscrowEvents()).toMatchObject({ completed: 1, cancelled: 0 });
    expect(await statusOf(r.id)).toBe("completed");
    expect(await balance(r.payout)).toBe(PRICE);
    expect((await balance(treasury.address)) - treasuryBefore).toBe(FEE);
    expect(await balance(r.renter.address)).toBe(START_BALANCE - PRICE - FEE);
    expect((await notices(r)).notifications).toHaveLength(1);
    expect(await syncEscrowEvents()).toMatchObject({ events: 0, completed: 0 });
    expect((await notices(r)).notifications).toHaveLength(1);
  });

  it("removes quotes nobody paid once their deadline has passed on chain, and keeps paid rentals", async () => {
    await syncEscrowEvents();
    const renter = await newRenter(p);
    const { agent } = await makePayableAgent();
    const unpaid = await quoteRental({ agentId: agent.id, durationType: "hour", channel: "API", renter: renter.address }, await chainDate(p));
    const paid = await paidRental({ confirm: false });
    expect(await syncEscrowEvents()).toMatchObject({ activated: 1, expiredQuotes: 0 });
    expect(await statusOf(unpaid.rentalId)).toBe("pending"); // still redeemable until its deadline

    await p.increaseTime(16 * 60); // QUOTE_TTL_SECONDS is 15 minutes
    expect((await syncEscrowEvents()).expiredQuotes).toBeGreaterThanOrEqual(1);
    expect(await db.rental.findUnique({ where: { id: unpaid.rentalId } })).toBeNull();
    expect(await statusOf(paid.id)).toBe("active");
  });

  it("an operator's cancel: cancelled, the renter refunded in full", async () => {
    const r = await paidRental();
    await p.e.send(operator.address, "cancel", [r.chainId]);
    expect(await syncEscrowEvents()).toMatchObject({ cancelled: 1 });
    expect(await statusOf(r.id)).toBe("cancelled");
    expect(await balance(r.renter.address)).toBe(START_BALANCE);
    expect(await balance(r.payout)).toBe(0n);
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
    const r = await paidRental({ confirm: false });
    const synced = await syncRoute.GET(cronRequest("sync-escrow", `Bearer ${CRON_SECRET}`));
    expect(synced.status).toBe(200);
    expect(await synced.json()).toEqual({
      fromBlock: expect.stringMatching(/^\d+$/),
      toBlock: expect.stringMatching(/^\d+$/),
      events: expect.any(Number),
      activated: 1,
      disputed: 0,
      cancelled: 0,
      completed: 0,
      expiredQuotes: 0,
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
        skipped: false,
      });
      expect(body.completed).toBeGreaterThanOrEqual(1);
    } finally {
      scope.now = undefined;
    }
    expect(await statusOf(r.id)).toBe("completed");
    expect(await releases(r)).toBe(1);
    expect(await balance(r.payout)).toBe(PRICE);
  });
});
