// Reorgs against a real chain (anvil snapshots) and the real database, with CHAIN_CONFIRMATIONS=3
// (issue 24). At each stage where money moves — a payment, the sweep's release, a dispute's refund
// — the chain is reverted by 1, 2 and CHAIN_CONFIRMATIONS + 1 blocks, the blocks mined again
// without the transaction, then the transaction is made again on the new chain. A revert shallower
// than the confirmations must never have reached the database; a deeper one must be undone by the
// event reader and the sweep. After each, rows, balances and events must agree: every rental's
// status is the escrow's, each rental released at most once, its renter told at most once, the
// owners and the treasury paid exactly what was released, and the escrow holding exactly the
// rentals the database holds open; the operator's nonces match the chain's.
import type { Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { syncEscrowEvents } from "@/lib/chain/sync-escrow-events";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { confirmRentalPayment } from "@/lib/rentals/confirm-rental-payment";
import { quoteRental } from "@/lib/rentals/quote-rental";
import { isolateDatabase } from "@/test/private-database";
import { Status } from "./escrow";
import {
  arbiter,
  chainDate,
  escrowAbi,
  makePayableAgent,
  newRenter,
  operator,
  type Payments,
  pay,
  type Quoted,
  type Renter,
  send,
  startPayments,
  treasury,
  USDC,
} from "./payments-harness";

const { releaseEndedRentals } = await import("@/lib/chain/release-ended-rentals");
const { reconcileEscrow } = await import("@/lib/chain/reconcile-escrow");

isolateDatabase("payments_reorgs");

const CONFIRMATIONS = 3;
const DEPTHS = [1, 2, CONFIRMATIONS + 1];
const HOUR = 3_600;
const PRICE = 2n * USDC; // makePayableAgent's hourly price
const STATUS_ON_CHAIN = {
  pending: Status.None,
  active: Status.Active,
  disputed: Status.Disputed,
  completed: Status.Released,
  cancelled: Status.Refunded,
};

let p: Payments;
let treasuryStart: bigint;
const all: Rental[] = [];

beforeAll(async () => {
  p = await startPayments();
  Object.assign(env, { CHAIN_CONFIRMATIONS: CONFIRMATIONS });
  treasuryStart = await p.e.balanceOf(treasury.address);
});
afterAll(() => p?.stop());

type Rental = { id: string; chainId: Hex; renter: Renter; payout: Hex; quoted: Quoted };

const mine = (blocks: number) => p.testClient.mine({ blocks });
const sweep = async () => releaseEndedRentals({ now: await chainDate(p), waitMs: 0 });

/** A rental quoted at the chain's time, not paid yet. */
async function quoted(): Promise<Rental> {
  const renter = await newRenter(p);
  const { agent, payout } = await makePayableAgent();
  const q = await quoteRental({ agentId: agent.id, durationType: "hour", channel: "API", renter: renter.address }, await chainDate(p));
  const rental = { id: q.rentalId, chainId: q.quote.rentalId, renter, payout, quoted: q };
  all.push(rental);
  return rental;
}

/** Paid, and final: CHAIN_CONFIRMATIONS deep and read. */
async function paid(): Promise<Rental> {
  const r = await quoted();
  await pay(p, r.renter, r.quoted, "permit");
  await mine(CONFIRMATIONS - 1);
  await syncEscrowEvents();
  expect(await statusOf(r)).toBe("active");
  return r;
}

const statusOf = async (r: Rental) => (await db.rental.findUniqueOrThrow({ where: { id: r.id } })).status;

/**
 * Runs `stage` (the transactions of one stage, then `blocks - 1` blocks on top, then the service's
 * reader and sweep), reverts the chain to before it, and mines `blocks + 1` empty blocks, so the
 * new chain is longer than the one that had the stage. Returns what the database said before the
 * revert.
 */
async function reorged(blocks: number, stage: () => Promise<void>, look: () => Promise<unknown>) {
  const snapshot = await p.testClient.snapshot();
  await stage();
  await mine(blocks - 1);
  await syncEscrowEvents();
  await sweep();
  const seen = await look();
  await p.testClient.revert({ id: snapshot });
  await mine(blocks + 1);
  return seen;
}

/** The reader and the sweep until nothing is in flight, with blocks mined in between. */
async function settle() {
  for (let i = 0; i < 4; i++) {
    await mine(CONFIRMATIONS);
    await syncEscrowEvents();
    await sweep();
  }
}

async function releasedTimes(r: Rental): Promise<number> {
  const events = await p.publicClient.getContractEvents({
    address: p.e.escrow,
    abi: escrowAbi,
    eventName: "RentalReleased",
    args: { id: r.chainId },
    fromBlock: 0n,
  });
  return events.length;
}

/** Rows, balances and events agree, for every rental of the file. */
async function agree() {
  await settle();
  let open = 0n;
  let released = 0n;
  for (const r of all) {
    const row = await db.rental.findUniqueOrThrow({ where: { id: r.id } });
    const record = await p.e.rental(r.chainId);
    expect({ rental: r.id, status: STATUS_ON_CHAIN[row.status] }).toEqual({ rental: r.id, status: record.status });
    const times = await releasedTimes(r);
    expect(times).toBe(row.status === "completed" ? 1 : 0);
    expect(await p.e.balanceOf(r.payout)).toBe(row.status === "completed" ? PRICE : 0n);
    const told = await db.notification.count({ where: { rentalId: r.id, kind: "rental-ended" } });
    expect(told).toBeLessThanOrEqual(1);
    if (row.status === "completed") {
      expect(told).toBe(1);
      expect(row.settleTxHash).not.toBeNull();
    }
    if (row.status === "active" || row.status === "disputed") open += row.priceMicro + row.feeMicro;
    if (row.status === "completed") released += row.feeMicro;
  }
  expect(await p.e.balanceOf(p.e.escrow)).toBe(open);
  expect((await p.e.balanceOf(treasury.address)) - treasuryStart).toBe(released);
  // Nothing in flight, and the nonces the database holds are the ones the chain used.
  expect(await db.chainTransaction.count({ where: { status: { in: ["prepared", "sent"] } } })).toBe(0);
  const held = await db.chainTransaction.aggregate({ where: { fromAddress: operator.address.toLowerCase() }, _max: { heldNonce: true } });
  expect((held._max.heldNonce ?? -1) + 1).toBe(await p.publicClient.getTransactionCount({ address: operator.address }));
}

describe(`reorgs of 1, 2 and ${CONFIRMATIONS + 1} blocks (CHAIN_CONFIRMATIONS=${CONFIRMATIONS})`, () => {
  it.each(DEPTHS)("a payment reorged away %i block(s) deep: pending again, activated once paid again", async (blocks) => {
    const r = await quoted();
    let receipt: Hex | undefined;
    const seen = await reorged(
      blocks,
      async () => {
        receipt = (await pay(p, r.renter, r.quoted, "permit")).transactionHash; // one transaction, one block
      },
      async () => ({ status: await statusOf(r), confirm: await confirmRentalPayment(receipt!).catch((error) => error.status) }),
    );
    // Shallower than the confirmations: the payment never reached the database (confirm says wait).
    expect(seen).toEqual(
      blocks > CONFIRMATIONS
        ? { status: "active", confirm: expect.objectContaining({ status: "active" }) }
        : { status: "pending", confirm: 409 },
    );
    const summary = await syncEscrowEvents();
    expect(summary.rewoundTo !== null).toBe(blocks > CONFIRMATIONS);
    expect(await statusOf(r)).toBe("pending");
    expect(await db.rental.findUniqueOrThrow({ where: { id: r.id } })).toMatchObject({ createTxHash: null });
    await expect(confirmRentalPayment(receipt!)).rejects.toMatchObject({ status: 400 });

    await pay(p, r.renter, r.quoted, "permit");
    await agree();
    expect(await statusOf(r)).toBe("active");
  });

  it.each(DEPTHS)(
    "the sweep's release reorged away %i block(s) deep: active again, released once by the same transaction",
    async (blocks) => {
      const r = await paid();
      await p.increaseTime(HOUR);
      await mine(CONFIRMATIONS - 1); // ended at the final block too
      const seen = await reorged(
        blocks,
        async () => {
          await sweep();
        },
        async () => {
          const row = await db.rental.findUniqueOrThrow({ where: { id: r.id }, include: { releaseTx: true } });
          return {
            status: row.status,
            tx: row.releaseTx?.status,
            told: await db.notification.count({ where: { rentalId: r.id, kind: "rental-ended" } }),
          };
        },
      );
      // Completed, and the renter told, only once the release was final.
      expect(seen).toEqual(
        blocks > CONFIRMATIONS ? { status: "completed", tx: "confirmed", told: 1 } : { status: "active", tx: "sent", told: 0 },
      );
      const summary = await syncEscrowEvents();
      expect(summary.rewoundTo !== null).toBe(blocks > CONFIRMATIONS);
      const row = await db.rental.findUniqueOrThrow({ where: { id: r.id }, include: { releaseTx: true } });
      expect(row).toMatchObject({ status: "active", settledAt: null, settleTxHash: null });
      expect(row.releaseTx?.status).toBe(blocks > CONFIRMATIONS ? "prepared" : "sent");
      const nonce = row.releaseTx!.nonce;

      await agree();
      const done = await db.rental.findUniqueOrThrow({ where: { id: r.id }, include: { releaseTx: true } });
      expect(done.status).toBe("completed");
      expect(done.releaseTx).toMatchObject({ status: "confirmed", nonce });
    },
  );

  it.each(DEPTHS)("a dispute's refund reorged away %i block(s) deep: disputed again, refunded once decided again", async (blocks) => {
    const r = await paid();
    await send(p, r.renter, p.e.escrow, escrowAbi, "openDispute", [r.chainId]);
    await mine(CONFIRMATIONS - 1);
    await syncEscrowEvents();
    expect(await statusOf(r)).toBe("disputed");
    const refund = () => p.e.send(arbiter.address, "resolveDispute", [r.chainId, PRICE]);
    const seen = await reorged(
      blocks,
      async () => {
        await refund();
      },
      async () => ({
        status: await statusOf(r),
        told: await db.notification.count({ where: { rentalId: r.id, kind: "dispute-resolved" } }),
      }),
    );
    expect(seen).toEqual(blocks > CONFIRMATIONS ? { status: "cancelled", told: 2 } : { status: "disputed", told: 0 });
    await syncEscrowEvents();
    expect(await db.rental.findUniqueOrThrow({ where: { id: r.id }, include: { dispute: true } })).toMatchObject({
      status: "disputed",
      disputeRefundMicro: null,
      settledAt: null,
      dispute: { resolvedAt: null, resolveTxHash: null, openedAt: expect.any(Date) },
    });

    await refund();
    await agree();
    expect(await statusOf(r)).toBe("cancelled");
    expect(await p.e.balanceOf(r.renter.address)).toBe(1_000n * USDC);
    // Told once, however often the outcome was read.
    expect(await db.notification.count({ where: { rentalId: r.id, kind: "dispute-resolved" } })).toBe(2);
  });

  it("a payment that lands, on the chain that wins, after the quote's deadline passed on the one that lost is activated", async () => {
    const r = await quoted();
    const snapshot = await p.testClient.snapshot();
    // The losing chain: the payment never comes, and the deadline passes (the reader reads it all).
    await p.increaseTime(16 * 60);
    await mine(CONFIRMATIONS);
    expect(await syncEscrowEvents()).toMatchObject({ expiredQuotes: 0 });
    expect(await statusOf(r)).toBe("pending");
    await p.testClient.revert({ id: snapshot });
    // The winning chain, longer: the payment is in it before the deadline.
    await pay(p, r.renter, r.quoted, "permit");
    await mine(20);
    expect((await syncEscrowEvents()).rewoundTo).not.toBeNull();
    expect(await statusOf(r)).toBe("active");
    await agree();
  });

  it("the issue's end state (completed here, Active on chain, the recorded nonce above the chain's) is reported by chain:reconcile and repaired by --fix", async () => {
    const r = await paid();
    await p.increaseTime(HOUR);
    await mine(CONFIRMATIONS - 1);
    const snapshot = await p.testClient.snapshot();
    await sweep();
    const sent = await db.rental.findUniqueOrThrow({ where: { id: r.id }, include: { releaseTx: true } });
    await p.publicClient.waitForTransactionReceipt({ hash: sent.releaseTx!.hash as Hex }); // automined, not within the call
    await mine(CONFIRMATIONS - 1);
    await sweep();
    const released = await db.rental.findUniqueOrThrow({ where: { id: r.id }, include: { releaseTx: true } });
    expect(released).toMatchObject({ status: "completed", releaseTx: { status: "confirmed" } });
    // The batch may hold earlier tests' rentals that had ended too.
    const batch = await db.rental.findMany({ where: { releaseTxId: released.releaseTxId } });
    // A reorg the database kept no trace of (no block hashes, no journal: as before they existed).
    await p.testClient.revert({ id: snapshot });
    await db.chainFact.deleteMany();
    await db.chainBlock.deleteMany();
    await mine(CONFIRMATIONS + 2);

    const report = await reconcileEscrow({ fix: false });
    const byRef = (a: { rental: string }, b: { rental: string }) => a.rental.localeCompare(b.rental);
    expect(report.differences.sort(byRef)).toEqual(
      batch.map((row) => ({ rental: row.ref, escrowId: row.escrowId, database: "completed", chain: "active" })).sort(byRef),
    );
    const usdc = (value: string) => BigInt(Math.round(Number(value) * 1e6));
    expect(usdc(report.escrow.open_on_chain_usdc) - usdc(report.escrow.open_in_database_usdc)).toBe(
      batch.reduce((sum, row) => sum + row.priceMicro + row.feeMicro, 0n),
    );
    expect(usdc(report.escrow.balance_usdc)).toBe(usdc(report.escrow.open_on_chain_usdc));
    expect(report.nonces).toMatchObject({ chain: released.releaseTx!.nonce, next_recorded: released.releaseTx!.nonce + 1 });

    const fixed = await reconcileEscrow({ fix: true });
    expect(fixed.differences.map((d) => d.fixed)).toEqual(batch.map(() => "active"));
    expect(await db.rental.findUniqueOrThrow({ where: { id: r.id } })).toMatchObject({
      status: "active",
      settledAt: null,
      settleTxHash: null,
      releaseTxId: null,
    });
    expect((await reconcileEscrow({ fix: false })).differences).toEqual([]);
    // The sweep sends the lost release again at its nonce: released once, the renter told once.
    await agree();
    expect(await statusOf(r)).toBe("completed");
  });
});
