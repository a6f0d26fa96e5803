// No stuck nonce (issue 24): the release sweep against anvil behind a JSON-RPC proxy that refuses
// or loses broadcasts, with the base fee moved by hand and the sweep SIGKILLed at chosen calls. A
// transaction the node refuses or that stays unmined is re-signed at the same nonce from the
// current base fee (at most CHAIN_MAX_FEE_GWEI); a nonce the database holds above the chain's is
// given back and filled. Every test ends with each rental released exactly once: one
// RentalReleased, its owner paid the price once, the treasury the fee, its renter told once, the
// escrow holding exactly the open rentals, and the operator's recorded nonces the chain's.
//
// This file has a database of its own: the sweep works through every ended rental of its database.
import { spawn } from "node:child_process";
import { type Hex, keccak256, parseGwei, parseTransaction } from "viem";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { releaseEndedRentals } from "@/lib/chain/release-ended-rentals";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { isolateDatabase } from "@/test/private-database";
import { tsNodeArgs } from "../../scripts/node-args";
import { chainDate, FEE, operator, type Payments, privateKeyOf, startPayments, treasury, USDC } from "./payments-harness";
import { lose, pass, type RpcProxy, refuse, startRpcProxy } from "./rpc-proxy";
import { notices, type Paid, paidRental, releases } from "./settlement-helpers";

isolateDatabase("release_sweep_nonces");

const HOUR = 3_600;
const PRICE = 2n * USDC; // makePayableAgent's hourly price

let p: Payments;
let proxy: RpcProxy;
let treasuryStart: bigint;
const all: Paid[] = [];

beforeAll(async () => {
  p = await startPayments();
  proxy = await startRpcProxy(p.rpcUrl);
  // The service talks to the chain through the proxy; the test's own clients go straight to anvil.
  Object.assign(env, { CHAIN_RPC_URL: proxy.url });
  treasuryStart = await p.e.balanceOf(treasury.address);
});
afterEach(() => {
  proxy.onBroadcast = pass;
  Object.assign(env, { CHAIN_MAX_FEE_GWEI: 50 });
  vi.restoreAllMocks();
});
afterAll(async () => {
  await proxy?.close();
  await p?.stop();
});

const mine = (blocks = 1) => p.testClient.mine({ blocks });
const sweep = async (options: Parameters<typeof releaseEndedRentals>[0] = {}) =>
  releaseEndedRentals({ now: await chainDate(p), waitMs: 0, ...options });
const operatorNonce = () => p.publicClient.getTransactionCount({ address: operator.address });
/** Waits for anvil to mine a transaction the sweep broadcast (automine mines it, but not within the call). */
const minedTx = (hash: string | null) => p.publicClient.waitForTransactionReceipt({ hash: hash as Hex });
const transactions = () => db.chainTransaction.findMany({ orderBy: [{ nonce: "asc" }, { createdAt: "asc" }] });
const quiet = () => {
  vi.spyOn(console, "warn").mockImplementation(() => {});
  vi.spyOn(console, "error").mockImplementation(() => {});
};

/** A paid rental (confirmed), counted in the file's checks. */
async function rental(): Promise<Paid> {
  const r = await paidRental(p);
  all.push(r);
  return r;
}

/** Rows, balances and events agree for every rental of the file, with nothing left in flight. */
async function releasedExactlyOnce() {
  for (let i = 0; i < 3 && (await db.chainTransaction.count({ where: { status: { in: ["prepared", "sent"] } } })) > 0; i++) {
    await mine();
    await sweep();
  }
  let open = 0n;
  let fees = 0n;
  for (const r of all) {
    const row = await db.rental.findUniqueOrThrow({ where: { id: r.id } });
    const times = await releases(p, r);
    expect({ rental: r.id, status: row.status, times }).toEqual({
      rental: r.id,
      status: row.status,
      times: row.status === "completed" ? 1 : 0,
    });
    expect(await p.e.balanceOf(r.payout)).toBe(row.status === "completed" ? PRICE : 0n);
    expect((await notices(r)).notifications).toHaveLength(row.status === "completed" ? 1 : 0);
    if (row.status === "active") open += row.priceMicro + row.feeMicro;
    if (row.status === "completed") fees += FEE;
  }
  expect(await p.e.balanceOf(p.e.escrow)).toBe(open);
  expect((await p.e.balanceOf(treasury.address)) - treasuryStart).toBe(fees);
  expect(await db.chainTransaction.count({ where: { status: { in: ["prepared", "sent"] } } })).toBe(0);
  const held = await db.chainTransaction.aggregate({ _max: { heldNonce: true } });
  expect((held._max.heldNonce ?? -1) + 1).toBe(await operatorNonce());
}

describe("release sweep: no stuck nonce", () => {
  it("a base-fee rise during an outage: releases signed before it are re-signed at their nonces from the current base fee, never above CHAIN_MAX_FEE_GWEI", async () => {
    quiet();
    const [a, b] = [await rental(), await rental()];
    const nonce = await operatorNonce();
    await p.increaseTime(HOUR);
    // The outage: the operator has no gas. Two runs each sign a release at the fees of the moment;
    // the node refuses both.
    await p.testClient.setBalance({ address: operator.address, value: 0n });
    expect(await sweep({ batchSize: 1, maxBatches: 1 })).toMatchObject({ claimed: 1, sent: 0 });
    expect(await sweep({ batchSize: 1, maxBatches: 1 })).toMatchObject({ claimed: 1, sent: 0, replaced: 0 });
    const signed = await transactions();
    expect(signed.map((t) => [t.status, t.nonce])).toEqual([
      ["prepared", nonce],
      ["prepared", nonce + 1],
    ]);
    const before = signed.map((t) => parseTransaction(t.rawTx as Hex));
    // Meanwhile the base fee rises to 10 gwei, above what either offers; then the gas comes back.
    expect(before.every((t) => t.maxFeePerGas! < parseGwei("10"))).toBe(true);
    await p.testClient.setNextBlockBaseFeePerGas({ baseFeePerGas: parseGwei("10") });
    await mine();
    await p.testClient.setBalance({ address: operator.address, value: 10n ** 20n });

    // With a cap below the base fee nothing is signed: the sweep waits for the base fee to fall.
    Object.assign(env, { CHAIN_MAX_FEE_GWEI: 5 });
    expect(await sweep()).toMatchObject({ waitingForFees: true, replaced: 0, sent: 0, claimed: 0 });
    expect((await transactions()).map((t) => t.hash)).toEqual(signed.map((t) => t.hash));

    // Under a cap above it: both re-signed at the same nonces, calldata and gas, from the current base fee.
    Object.assign(env, { CHAIN_MAX_FEE_GWEI: 30 });
    expect(await sweep()).toMatchObject({ waitingForFees: false, replaced: 2, failed: 0 });
    const resigned = await transactions();
    for (const t of resigned) await minedTx(t.hash);
    for (const [i, t] of resigned.entries()) {
      const now = parseTransaction(t.rawTx as Hex);
      expect([now.nonce, now.data, now.gas, t.replacedHashes]).toEqual([before[i].nonce, before[i].data, before[i].gas, [signed[i].hash]]);
      expect(now.maxFeePerGas! > parseGwei("10")).toBe(true);
      expect(now.maxFeePerGas! <= parseGwei("30")).toBe(true);
    }
    expect(await sweep()).toMatchObject({ completed: 2 });
    for (const r of [a, b]) expect((await db.rental.findUniqueOrThrow({ where: { id: r.id } })).status).toBe("completed");
    expect(await operatorNonce()).toBe(nonce + 2);
    await releasedExactlyOnce();
  });

  it("a broadcast the node lost is sent again; a transaction dropped from the pool is re-signed at its nonce once stuck", async () => {
    quiet();
    const r = await rental();
    await p.increaseTime(HOUR);
    const start = await chainDate(p);
    const at = (seconds: number) => releaseEndedRentals({ now: new Date(start.getTime() + seconds * 1000), waitMs: 0 });

    // The proxy answers the broadcast as if the node took it, and never passes it on.
    proxy.onBroadcast = lose;
    expect(await at(0)).toMatchObject({ sent: 1, completed: 0 });
    const lost = (await transactions()).at(-1)!;
    expect(lost.status).toBe("sent");
    await mine();
    expect(await operatorNonce()).toBe(lost.nonce); // nothing reached the chain
    proxy.onBroadcast = pass;
    await p.testClient.setAutomine(false);
    try {
      // Within 90 s: the same bytes again, which the node now has.
      expect(await at(30)).toMatchObject({ replaced: 0 });
      expect(proxy.broadcasts.at(-1)!.hash).toBe(lost.hash);
      // The node drops it from its pool; 90 s after it was sent it is re-signed, same nonce.
      await p.testClient.dropTransaction({ hash: lost.hash as Hex });
      expect(await at(120)).toMatchObject({ replaced: 1 });
      const resigned = (await transactions()).at(-1)!;
      expect(resigned).toMatchObject({ id: lost.id, nonce: lost.nonce, attempts: 1, replacedHashes: [lost.hash] });
      await mine();
    } finally {
      await p.testClient.setAutomine(true);
    }
    expect(await at(150)).toMatchObject({ completed: 1 });
    expect((await db.rental.findUniqueOrThrow({ where: { id: r.id } })).status).toBe("completed");
    await releasedExactlyOnce();
  });

  it("a recorded nonce above the chain's: a failed transaction's nonce the chain never used is given back and taken by the next release", async () => {
    quiet();
    const r = await rental();
    await p.increaseTime(HOUR);
    const nonce = await operatorNonce();
    // The database says the nonce was used (by a transaction another branch had), the chain says not.
    await db.chainTransaction.create({
      data: {
        kind: "release",
        fromAddress: operator.address.toLowerCase(),
        nonce,
        heldNonce: nonce,
        status: "failed",
        error: "nonce used by another transaction",
      },
    });
    expect(await sweep()).toMatchObject({ sent: 1, filled: 0 });
    const { releaseTx } = await db.rental.findUniqueOrThrow({ where: { id: r.id }, include: { releaseTx: true } });
    expect(releaseTx!.nonce).toBe(nonce); // not nonce + 1, behind a gap for ever
    await minedTx(releaseTx!.hash);
    expect(await sweep()).toMatchObject({ completed: 1 });
    expect((await db.rental.findUniqueOrThrow({ where: { id: r.id } })).status).toBe("completed");
    await releasedExactlyOnce();
  });

  it("a recorded nonce above the chain's with nothing left to send: the gap is filled with a zero-value transfer, and the release behind it is mined", async () => {
    quiet();
    const r = await rental();
    await p.increaseTime(HOUR);
    const nonce = await operatorNonce();
    // A transaction at the chain's next nonce that the node keeps refusing...
    const stray = await p.walletClient.signTransaction(
      await p.walletClient.prepareTransactionRequest({ account: operator, to: operator.address, value: 1n, nonce }),
    );
    const refused = await db.chainTransaction.create({
      data: {
        kind: "filler",
        fromAddress: operator.address.toLowerCase(),
        nonce,
        heldNonce: nonce,
        hash: keccak256(stray),
        rawTx: stray,
        status: "prepared",
      },
    });
    // (every version of it: re-signing at higher fees does not help).
    proxy.onBroadcast = (tx, forward) => (parseTransaction(tx.raw).nonce === nonce ? refuse(tx, forward) : forward());
    // ...so the release goes to the nonce after it, and waits behind it in the pool.
    expect(await sweep()).toMatchObject({ sent: 1, completed: 0 });
    const { releaseTx } = await db.rental.findUniqueOrThrow({ where: { id: r.id }, include: { releaseTx: true } });
    expect(releaseTx).toMatchObject({ nonce: nonce + 1, status: "sent" });
    // Then the database marks the stray one failed, as an operator giving up on it would.
    await db.chainTransaction.update({ where: { id: refused.id }, data: { status: "failed", error: "given up by hand" } });
    proxy.onBroadcast = pass;
    await mine();
    expect(await operatorNonce()).toBe(nonce);

    // Nothing is releasable: the gap gets a zero-value transfer to the operator itself.
    expect(await sweep()).toMatchObject({ filled: 1, claimed: 0 });
    const filler = (await transactions()).find((t) => t.kind === "filler" && t.heldNonce === nonce)!;
    const sent = await p.publicClient.getTransaction({ hash: filler.hash as Hex });
    expect([sent.to, sent.value, sent.nonce]).toEqual([operator.address.toLowerCase(), 0n, nonce]);
    await minedTx(filler.hash);
    await minedTx(releaseTx!.hash); // no longer waiting behind the gap
    expect(await sweep()).toMatchObject({ completed: 1 });
    expect(await operatorNonce()).toBe(nonce + 2);
    expect((await db.rental.findUniqueOrThrow({ where: { id: r.id } })).status).toBe("completed");
    await releasedExactlyOnce();
  });

  it("SIGKILLed while re-signing a refused release (before and after the node gets it): released once", async () => {
    quiet();
    const r = await rental();
    await p.increaseTime(HOUR);
    const nonce = await operatorNonce();
    await p.testClient.setBalance({ address: operator.address, value: 0n });
    expect(await sweep()).toMatchObject({ claimed: 1, sent: 0 });
    const first = (await transactions()).at(-1)!;
    await p.testClient.setNextBlockBaseFeePerGas({ baseFeePerGas: parseGwei("10") });
    await mine();
    await p.testClient.setBalance({ address: operator.address, value: 10n ** 20n });

    // Killed as it broadcasts the re-signed version: the new version is recorded, never sent.
    await sweepKilled((tx) => tx.hash !== first.hash, "before");
    const recorded = await db.chainTransaction.findUniqueOrThrow({ where: { id: first.id } });
    expect(recorded).toMatchObject({ status: "prepared", attempts: 1, replacedHashes: [first.hash] });
    expect(await operatorNonce()).toBe(nonce);
    // Killed right after the node took the recorded version (automine mines it).
    await sweepKilled((tx) => tx.hash === recorded.hash, "after");
    await minedTx(recorded.hash);
    expect(await operatorNonce()).toBe(nonce + 1);

    expect(await sweep()).toMatchObject({ completed: 1, replaced: 0, sent: 0 });
    expect((await db.chainTransaction.findUniqueOrThrow({ where: { id: first.id } })).hash).toBe(recorded.hash);
    expect((await db.rental.findUniqueOrThrow({ where: { id: r.id } })).status).toBe("completed");
    await releasedExactlyOnce();
  });
});

/**
 * One sweep in a process of its own (test/chain/sweep-process.ts), killed with SIGKILL when it
 * broadcasts a transaction `matching`: before the node gets it, or right after.
 */
async function sweepKilled(matching: (tx: { hash: Hex }) => boolean, when: "before" | "after"): Promise<void> {
  const child = spawn(
    process.execPath,
    tsNodeArgs("test/chain/sweep-process.ts", [(await chainDate(p)).toISOString()], { reactServer: true }),
    {
      env: {
        ...process.env,
        DATABASE_URL: env.DATABASE_URL,
        CHAIN_ID: String(env.CHAIN_ID),
        CHAIN_RPC_URL: proxy.url,
        USDC_ADDRESS: env.USDC_ADDRESS,
        ESCROW_ADDRESS: env.ESCROW_ADDRESS,
        QUOTE_SIGNER_PRIVATE_KEY: env.QUOTE_SIGNER_PRIVATE_KEY,
        OPERATOR_PRIVATE_KEY: privateKeyOf(operator),
        CHAIN_MAX_FEE_GWEI: String(env.CHAIN_MAX_FEE_GWEI),
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) => child.once("exit", (code, signal) => resolve(signal ?? code)));
  proxy.onBroadcast = async (tx, forward) => {
    if (!matching(tx)) return forward();
    if (when === "after") await forward();
    child.kill("SIGKILL");
    return null;
  };
  const how = await exited;
  proxy.onBroadcast = pass;
  expect(how, `the sweep was to be killed, but it ended: ${output}`).toBe("SIGKILL");
}
