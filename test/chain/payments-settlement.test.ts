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
import { type Hex, parseTransaction, TransactionReceiptNotFoundError } from "viem";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { startWebhook } from "@/test/fixtures";
import { isolateDatabase } from "@/test/private-database";
import { Status } from "./escrow";
import { admin, chainDate, FEE, operator, other, type Payments, privateKeyOf, startPayments, treasury, USDC } from "./payments-harness";
import { notices, paidRental, releases } from "./settlement-helpers";

// Both this file and its sibling read escrow events into the one cursor row: each keeps its own
// database, so neither sees the other's chain.
isolateDatabase("payments_settlement");

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

const { releaseEndedRentals } = await import("@/lib/chain/release-ended-rentals");
const { syncEscrowEvents } = await import("@/lib/chain/sync-escrow-events");
const { sendQueuedEmails } = await import("@/lib/email/send-queued-emails");

const HOUR = 3_600;
const PRICE = 2n * USDC; // makePayableAgent's hourly price

let p: Payments;

beforeAll(async () => {
  // Well behind the wall clock even after the hours this file travels (one per ended rental batch).
  p = await startPayments({ secondsBehind: 12 * HOUR });
});
afterAll(() => p?.stop());

/** The sweep at the chain's time plus `seconds`. */
async function sweep(seconds = 0, options: { waitMs?: number } = {}) {
  return releaseEndedRentals({ now: new Date((await chainDate(p)).getTime() + seconds * 1000), ...options });
}

const rental = (id: string) => db.rental.findUniqueOrThrow({ where: { id }, include: { releaseTx: true } });
const statusOf = async (id: string) => (await rental(id)).status;
const balance = (who: Hex) => p.e.balanceOf(who);
const operatorNonce = () => p.publicClient.getTransactionCount({ address: operator.address });

/** A time the sweep recorded: its `now` plus the few milliseconds the run had taken. */
// The sweep's clock starts at the `now` it is given and moves with real time; the chain (and so
// `now`) runs 12 hours behind the wall clock. A recorded time after `now` and hours before the
// wall clock is on the sweep's clock, however slowly the machine ran in between.
function expectOnSweepClock(recorded: Date, now: Date) {
  expect(recorded.getTime() - now.getTime()).toBeGreaterThanOrEqual(0);
  expect(Date.now() - recorded.getTime()).toBeGreaterThan(6 * HOUR * 1000);
}

describe("release sweep", () => {
  it("after ends_at: owner gets exactly the price, treasury the fee, the renter one notice; a second run does nothing", async () => {
    const email = `renter-${randomBytes(6).toString("hex")}@example.com`;
    const r = await paidRental(p, { email });
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
    expect(done.releaseTx).toMatchObject({
      kind: "release",
      status: "confirmed",
      fromAddress: operator.address.toLowerCase(),
      replacedHashes: [],
      attempts: 0,
    });
    expect(done.releaseTx!.nonce).toEqual(expect.any(Number));
    expect(done.releaseTx!.confirmedAt).toBeInstanceOf(Date);
    const tx = await p.publicClient.getTransaction({ hash: done.releaseTx!.hash as Hex });
    expect([tx.from.toLowerCase(), tx.nonce]).toEqual([operator.address.toLowerCase(), done.releaseTx!.nonce]);
    // The payout is dated by its block and names its transaction (the owner's payouts history).
    const { timestamp } = await p.publicClient.getBlock({ blockHash: tx.blockHash! });
    expect([done.settledAt, done.settleTxHash]).toEqual([new Date(Number(timestamp) * 1000), done.releaseTx!.hash!.toLowerCase()]);
    expect(await balance(r.payout)).toBe(PRICE);
    expect((await balance(treasury.address)) - treasuryBefore).toBe(FEE);
    expect((await p.e.rental(r.chainId)).status).toBe(Status.Released);
    expect(await releases(p, r)).toBe(1);

    const renterAccount = await db.account.findUniqueOrThrow({
      where: { walletAddress: r.renter.address.toLowerCase() },
    });
    const first = await notices(r);
    expect(first.notifications).toEqual([expect.objectContaining({ accountId: renterAccount.id, kind: "rental-ended" })]);
    expect(first.emails).toEqual([expect.objectContaining({ to: email, subject: expect.stringContaining("has ended") })]);

    const nonce = await operatorNonce();
    await sweep(60);
    await sweep(120);
    expect(await operatorNonce()).toBe(nonce); // nothing sent
    expect(await rental(r.id)).toEqual(done);
    expect(await notices(r)).toEqual(first);
    expect(await releases(p, r)).toBe(1);
    expect(await balance(r.payout)).toBe(PRICE);
  });

  it("with Resend configured, the sweep calls no provider: the renter's and the owner's e-mails are queued, and the sender sends each once", async () => {
    const resend = await startWebhook((req, res) =>
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ id: `re-${req.headers["idempotency-key"]}` })),
    );
    const before = { RESEND_API_KEY: env.RESEND_API_KEY, RESEND_BASE_URL: env.RESEND_BASE_URL };
    Object.assign(env, { RESEND_API_KEY: `re_${randomBytes(12).toString("hex")}`, RESEND_BASE_URL: `http://127.0.0.1:${resend.port}` });
    try {
      const r = await paidRental(p, { email: `renter-${randomBytes(6).toString("hex")}@example.com` });
      await p.increaseTime(HOUR);
      expect(await sweep()).toMatchObject({ completed: 1 });
      const emails = await db.email.findMany({ where: { idempotencyKey: { contains: `:${r.id}:` } } });
      expect(emails.map((e) => e.idempotencyKey.split(":")[0]).sort()).toEqual(["rental-ended", "rental-paid-out"]);
      expect(emails.every((e) => e.transport === "resend" && e.status === "queued" && e.attempts === 0)).toBe(true);
      expect(resend.received).toHaveLength(0);

      expect(await sendQueuedEmails({ only: emails.map((e) => e.id) })).toMatchObject({ sent: 2, remaining: 0 });
      expect(await sendQueuedEmails({ only: emails.map((e) => e.id) })).toMatchObject({ tried: 0 });
      expect(resend.received.map((q) => q.headers["idempotency-key"]).sort()).toEqual(emails.map((e) => e.idempotencyKey).sort());
    } finally {
      Object.assign(env, before);
      await resend.close();
    }
  });

  it("two sweeps started at once release each rental exactly once", async () => {
    const rentals = [await paidRental(p), await paidRental(p)];
    await p.increaseTime(HOUR);
    const [treasuryBefore, nonce] = await Promise.all([balance(treasury.address), operatorNonce()]);

    const now = await chainDate(p);
    const [a, b] = await Promise.all([releaseEndedRentals({ now }), releaseEndedRentals({ now })]);

    expect(a.completed + b.completed).toBe(2);
    expect(a.failed + b.failed).toBe(0);
    expect(await operatorNonce()).toBe(nonce + 1); // one settleMany between them
    for (const r of rentals) {
      expect(await statusOf(r.id)).toBe("completed");
      expect(await releases(p, r)).toBe(1);
      expect(await balance(r.payout)).toBe(PRICE);
      expect((await notices(r)).notifications).toHaveLength(1);
    }
    expect((await balance(treasury.address)) - treasuryBefore).toBe(2n * FEE);
  });

  it("a stuck transaction is replaced (same nonce, higher fees) after 90 s, and settled once mined", async () => {
    const r = await paidRental(p);
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
    expect(await releases(p, r)).toBe(1);
    expect(await balance(r.payout)).toBe(PRICE);
    expect((await notices(r)).notifications).toHaveLength(1);
    expect(await sweep(210)).toMatchObject({ completed: 0, replaced: 0 });
  });

  it("a transaction stuck under a previous operator key is given up after 90 s; the new key releases its rentals", async () => {
    const r = await paidRental(p);
    await p.increaseTime(HOUR);
    const now = (await chainDate(p)).getTime();
    const at = (seconds: number) => new Date(now + seconds * 1000);
    const oldKey = env.OPERATOR_PRIVATE_KEY;
    // Rotating the key: the admin grants the new key OPERATOR_ROLE first (docs/operations.md).
    await p.e.send(admin.address, "grantRole", [(await p.e.read("OPERATOR_ROLE")) as Hex, other.address]);

    await p.testClient.setAutomine(false);
    try {
      expect(await releaseEndedRentals({ now: at(0), waitMs: 300 })).toMatchObject({ sent: 1 });
      const stuck = (await rental(r.id)).releaseTx!;
      Object.assign(env, { OPERATOR_PRIVATE_KEY: privateKeyOf(other) }); // the key is rotated

      const run = await releaseEndedRentals({ now: at(120), waitMs: 0 });
      expect(run).toMatchObject({ failed: 1, replaced: 0, sent: 1 });
      expect(await db.chainTransaction.findUniqueOrThrow({ where: { id: stuck.id } })).toMatchObject({
        status: "failed",
        hash: stuck.hash,
        replacedHashes: [],
        error: expect.stringMatching(/previous operator key/),
      });
      expect((await rental(r.id)).releaseTx).toMatchObject({
        status: "sent",
        fromAddress: other.address.toLowerCase(),
      });
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
    expect(await releases(p, r)).toBe(1);
    expect(await balance(r.payout)).toBe(PRICE);
  });

  it("a transaction whose nonce another transaction took is marked failed and its rentals released by a new one", async () => {
    const r = await paidRental(p);
    await p.increaseTime(HOUR);
    await p.testClient.setAutomine(false);
    let lost: { id: string; nonce: number };
    try {
      expect(await sweep(0, { waitMs: 300 })).toMatchObject({ sent: 1 });
      lost = (await rental(r.id)).releaseTx!;
      // Someone with the operator key outbids it with another transaction at the same nonce.
      await p.walletClient.sendTransaction({
        account: operator.address,
        to: operator.address,
        value: 0n,
        nonce: lost.nonce,
        maxFeePerGas: 10n ** 12n,
        maxPriorityFeePerGas: 10n ** 11n,
      });
      await p.testClient.mine({ blocks: 1 });
    } finally {
      await p.testClient.setAutomine(true);
    }
    expect(await statusOf(r.id)).toBe("active");

    expect(await sweep(10)).toMatchObject({ failed: 1, sent: 1, completed: 1 });
    expect(await db.chainTransaction.findUniqueOrThrow({ where: { id: lost.id } })).toMatchObject({
      status: "failed",
      error: "nonce used by another transaction",
    });
    const done = await rental(r.id);
    expect(done.status).toBe("completed");
    expect(done.releaseTx).toMatchObject({ status: "confirmed", nonce: lost.nonce + 1 });
    expect(await releases(p, r)).toBe(1);
    expect(await balance(r.payout)).toBe(PRICE);
  });
});
