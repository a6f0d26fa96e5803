// A paid answer settled on chain (issue 27): settleMessagePayment against anvil and the real
// database. The payment's payForMessage is recorded before it is sent (a "message" chain
// transaction holding its nonce), settled from its receipt; 20 at once each take their own nonce;
// a refusal is a failed payment with a readable reason, without a transaction when the estimate
// already says so; the release sweep and the event reader settle one the caller stopped waiting
// for, and a reorg of its block puts it back to settling until it is mined again.
//
// This file has a database of its own: nonces are allocated from every operator transaction of it.
import { type Address, type Hex, parseEventLogs, parseGwei } from "viem";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { releaseEndedRentals } from "@/lib/chain/release-ended-rentals";
import { settleMessagePayment } from "@/lib/chain/settle-message-payment";
import { syncEscrowEvents } from "@/lib/chain/sync-escrow-events";
import { db } from "@/lib/db";
import { isolateDatabase } from "@/test/private-database";
import { authorize, payForMessageAbi, signCancel } from "./message-payments";
import { makePayableAgent, newRenter, operator, other, type Payments, type Renter, startPayments, treasury } from "./payments-harness";

isolateDatabase("settle_message_payment");

const PRICE = 50_000n; // 0.05 USDC an answer
const FEE = 5_000n;

let p: Payments;
let agentId: string;
let payout: Address;

beforeAll(async () => {
  p = await startPayments();
  const made = await makePayableAgent();
  agentId = made.agent.id;
  payout = made.payout;
});
afterAll(async () => {
  await p?.stop();
});

const quiet = () => {
  vi.spyOn(console, "warn").mockImplementation(() => {});
  vi.spyOn(console, "error").mockImplementation(() => {});
};

/** A payment row as the chat route leaves it once the owner answered 2xx ("answering"), signed by `payer`. */
async function answered(payer: Renter, terms: { validBefore?: bigint; validAfter?: bigint } = {}) {
  const { payment, signature } = await authorize(p.publicClient, p.e, payer.account, { owner: payout, price: PRICE, fee: FEE, ...terms });
  const row = await db.messagePayment.create({
    data: {
      agentId,
      payer: payment.payer.toLowerCase(),
      nonce: payment.nonce,
      payoutAddress: payout.toLowerCase(),
      priceMicro: PRICE,
      feeMicro: FEE,
      validAfter: payment.validAfter,
      validBefore: payment.validBefore,
      signature,
      status: "answering",
    },
  });
  return { row, payment, signature };
}

const paymentOf = (id: string) => db.messagePayment.findUniqueOrThrow({ where: { id }, include: { chainTransaction: true } });
const operatorNonce = () => p.publicClient.getTransactionCount({ address: operator.address });
const credit = (who: Address) => p.e.credits(who);

async function messagePaidEvents() {
  return p.publicClient.getContractEvents({ address: p.e.escrow, abi: payForMessageAbi, eventName: "MessagePaid", fromBlock: 0n });
}

/** The nonces the database holds agree with the chain's: nothing in flight, the next one the chain's. */
async function noncesAgree() {
  expect(await db.chainTransaction.count({ where: { status: { in: ["prepared", "sent"] } } })).toBe(0);
  const held = await db.chainTransaction.aggregate({ _max: { heldNonce: true } });
  expect((held._max.heldNonce ?? -1) + 1).toBe(await operatorNonce());
}

async function until(check: () => Promise<boolean>, what: string) {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe("settleMessagePayment", () => {
  it("settles: a 'message' transaction recorded at the operator's nonce, confirmed; the payment settled with its hash and block time; the owner credited the price, the treasury the fee", async () => {
    const payer = await newRenter(p);
    const { row } = await answered(payer);
    const [nonce, ownerBefore, treasuryBefore, payerBefore] = [
      await operatorNonce(),
      await credit(payout),
      await credit(treasury.address),
      await p.e.balanceOf(payer.address),
    ];

    const result = await settleMessagePayment(row.id);
    expect(result).toEqual({ ok: true, txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
    const txHash = (result as { txHash: Hex }).txHash;
    const receipt = await p.publicClient.getTransactionReceipt({ hash: txHash });
    const block = await p.publicClient.getBlock({ blockNumber: receipt.blockNumber });
    const settled = await paymentOf(row.id);
    expect(settled).toMatchObject({ status: "settled", txHash, error: null, settledAt: new Date(Number(block.timestamp) * 1000) });
    expect(settled.chainTransaction).toMatchObject({
      kind: "message",
      fromAddress: operator.address.toLowerCase(),
      nonce,
      heldNonce: nonce,
      hash: txHash,
      status: "confirmed",
      blockNumber: receipt.blockNumber,
    });
    expect(await credit(payout)).toBe(ownerBefore + PRICE);
    expect(await credit(treasury.address)).toBe(treasuryBefore + FEE);
    expect(await p.e.balanceOf(payer.address)).toBe(payerBefore - PRICE - FEE);
    const events = parseEventLogs({ abi: payForMessageAbi, logs: receipt.logs, eventName: "MessagePaid" });
    expect(events.map((e) => e.args)).toEqual([{ payer: payer.address, nonce: row.nonce, owner: payout, price: PRICE, fee: FEE }]);

    // Again: the same answer, no second transaction.
    expect(await settleMessagePayment(row.id)).toEqual(result);
    expect(await db.chainTransaction.count({ where: { kind: "message" } })).toBe(1);
    await noncesAgree();
  });

  it("20 settlements at once: each its own nonce, each paid once on chain, every payment settled", async () => {
    // Made one after another: anvil numbers the funding account's transactions as they come.
    const payers = [];
    for (let i = 0; i < 4; i++) payers.push(await newRenter(p));
    const rows = [];
    for (let i = 0; i < 20; i++) rows.push((await answered(payers[i % payers.length])).row);
    const [first, eventsBefore, ownerBefore] = [await operatorNonce(), (await messagePaidEvents()).length, await credit(payout)];

    const results = await Promise.all(rows.map((row) => settleMessagePayment(row.id)));
    expect(results.filter((r) => r.ok)).toHaveLength(20);
    const settled = await Promise.all(rows.map((row) => paymentOf(row.id)));
    expect(settled.map((s) => s.status)).toEqual(Array(20).fill("settled"));
    const nonces = settled.map((s) => s.chainTransaction!.nonce).sort((a, b) => a - b);
    expect(nonces).toEqual(Array.from({ length: 20 }, (_, i) => first + i));
    expect(new Set(settled.map((s) => s.txHash)).size).toBe(20);
    const events = (await messagePaidEvents()).slice(eventsBefore);
    expect(events).toHaveLength(20);
    expect(new Set(events.map((e) => e.args.nonce)).size).toBe(20);
    expect(await credit(payout)).toBe(ownerBefore + 20n * PRICE);
    expect(await p.e.balanceOf(p.e.escrow)).toBe(await p.e.totalOwed());
    await noncesAgree();
  });

  it("an authorization the escrow would refuse fails the payment with a readable reason, and sends nothing", async () => {
    const payer = await newRenter(p);
    const now = await p.now();
    const expired = await answered(payer, { validAfter: 0n, validBefore: now - 1n });
    const poor = await newRenter(p, { usdc: PRICE }); // the fee short
    const underfunded = await answered(poor);
    const cancelled = await answered(payer);
    await p.walletClient.writeContract({
      account: other.address,
      address: p.e.token,
      abi: p.e.tokenAbi,
      functionName: "cancelAuthorization",
      args: await signCancel(p.publicClient, p.e.token, payer.account, cancelled.row.nonce as Hex),
    } as never);
    const nonce = await operatorNonce();

    expect(await settleMessagePayment(expired.row.id)).toEqual({ ok: false, reason: expect.stringMatching(/^expired: /) });
    expect(await settleMessagePayment(underfunded.row.id)).toEqual({ ok: false, reason: expect.stringMatching(/^underfunded: /) });
    expect(await settleMessagePayment(cancelled.row.id)).toEqual({ ok: false, reason: expect.stringMatching(/^used: /) });
    for (const { row } of [expired, underfunded, cancelled]) {
      const failed = await paymentOf(row.id);
      expect(failed).toMatchObject({ status: "failed", chainTransactionId: null, txHash: null, settledAt: null });
      expect(failed.error).toMatch(/^(expired|underfunded|used): /);
    }
    expect(await operatorNonce()).toBe(nonce);
    await noncesAgree();
  });

  it("a transaction that reverts on chain (the authorization cancelled ahead of it in the block): transaction and payment failed, the reason decoded", async () => {
    quiet();
    const payer = await newRenter(p);
    const { row } = await answered(payer);
    await p.testClient.setAutomine(false);
    try {
      const settling = settleMessagePayment(row.id, { waitMs: 20_000, pollMs: 25 });
      await until(async () => (await paymentOf(row.id)).chainTransaction?.status === "sent", "the broadcast");
      // The payer cancels with a higher tip: mined first in the same block.
      await p.walletClient.writeContract({
        account: other.address,
        address: p.e.token,
        abi: p.e.tokenAbi,
        functionName: "cancelAuthorization",
        args: await signCancel(p.publicClient, p.e.token, payer.account, row.nonce as Hex),
        maxPriorityFeePerGas: parseGwei("100"),
        maxFeePerGas: parseGwei("300"),
      } as never);
      await p.testClient.mine({ blocks: 1 });
      expect(await settling).toEqual({ ok: false, reason: expect.stringMatching(/^used: /) });
    } finally {
      await p.testClient.setAutomine(true);
    }
    const failed = await paymentOf(row.id);
    expect(failed).toMatchObject({ status: "failed", settledAt: null });
    expect(failed.error).toMatch(/^used: /);
    expect(failed.chainTransaction).toMatchObject({ status: "failed", error: expect.stringMatching(/^reverted on chain: used: /) });
    const receipt = await p.publicClient.getTransactionReceipt({ hash: failed.txHash as Hex });
    expect(receipt.status).toBe("reverted");
    // The reverted transaction used its nonce: nothing to give back, nothing in flight.
    await noncesAgree();
  });

  it("the caller stopped waiting: the release sweep settles it from its receipt", async () => {
    const payer = await newRenter(p);
    const { row } = await answered(payer);
    await p.testClient.setAutomine(false);
    try {
      expect(await settleMessagePayment(row.id, { waitMs: 0 })).toEqual({
        ok: false,
        reason: expect.stringMatching(/stays settling/),
        pendingTx: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      });
      expect(await paymentOf(row.id)).toMatchObject({ status: "settling", chainTransaction: { status: "sent" } });
      await p.testClient.mine({ blocks: 1 });
    } finally {
      await p.testClient.setAutomine(true);
    }
    const summary = await releaseEndedRentals({ waitMs: 0 });
    expect(summary).toMatchObject({ failed: 0, completed: 0 });
    const settled = await paymentOf(row.id);
    expect(settled).toMatchObject({ status: "settled", chainTransaction: { status: "confirmed" } });
    expect(settled.txHash).toBe(settled.chainTransaction!.hash);
    await noncesAgree();
  });

  it("the event reader marks it settled from MessagePaid; a reorg of that block puts it back to settling, and it is settled again once mined again", async () => {
    quiet();
    await syncEscrowEvents(); // catch up with the earlier tests
    const payer = await newRenter(p);
    const { row } = await answered(payer);
    const snapshot = await p.testClient.snapshot();
    await p.testClient.setAutomine(false);
    try {
      await settleMessagePayment(row.id, { waitMs: 0 });
      await p.testClient.mine({ blocks: 1 });
    } finally {
      await p.testClient.setAutomine(true);
    }
    await syncEscrowEvents();
    const settled = await paymentOf(row.id);
    const receipt = await p.publicClient.getTransactionReceipt({ hash: settled.chainTransaction!.hash as Hex });
    const block = await p.publicClient.getBlock({ blockNumber: receipt.blockNumber });
    expect(settled).toMatchObject({
      status: "settled",
      txHash: receipt.transactionHash,
      settledAt: new Date(Number(block.timestamp) * 1000),
      chainTransaction: { status: "confirmed", blockNumber: receipt.blockNumber },
    });

    // The block goes away: the chain is reverted to before it and grows longer without it.
    await p.testClient.revert({ id: snapshot });
    await p.testClient.mine({ blocks: 3 });
    const rewind = await syncEscrowEvents();
    expect(rewind.rewoundTo).not.toBeNull();
    expect(await paymentOf(row.id)).toMatchObject({
      status: "settling",
      txHash: null,
      settledAt: null,
      chainTransaction: { status: "prepared", blockNumber: null },
    });

    // The sweep sends the same signed transaction again; it is mined and settled again.
    await releaseEndedRentals({ waitMs: 0 });
    await releaseEndedRentals({ waitMs: 0 });
    const again = await paymentOf(row.id);
    expect(again).toMatchObject({ status: "settled", txHash: settled.txHash, chainTransaction: { status: "confirmed" } });
    await syncEscrowEvents();
    expect((await messagePaidEvents()).filter((e) => e.args.nonce === row.nonce)).toHaveLength(1);
    await noncesAgree();
  });
});
