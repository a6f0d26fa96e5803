// One size of bench/release-sweep.ts, in a process of its own (the database client is one per
// process): a fresh database and anvil chain, SIZE rentals paid into the escrow and ended, then the
// release sweep run back to back as the cron runs it until none is left, timed, and checked. Writes
// its figures to bench-results/sweep-SIZE.json. Usage: tsx --conditions=react-server
// bench/release-sweep-run.ts SIZE [--emails]
//
// With --emails every renter and owner has an address and Resend is configured (RESEND_API_KEY,
// RESEND_BASE_URL at a local stand-in that answers like Resend: after 100 ms, and 429 with
// Retry-After past 2 requests a second), so the sweep tells 2 × SIZE people by e-mail. The sweep
// only queues them for the sender (the send-messages cron): its time must not include sending, and
// the check fails if the stand-in received anything during it. Figures: bench-results/sweep-SIZE-emails.json.

import { randomUUID } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import {
  type Address,
  createPublicClient,
  createWalletClient,
  decodeErrorResult,
  encodeFunctionData,
  type Hex,
  http,
  maxUint256,
  toHex,
} from "viem";
import { quoteDomain, quoteTypes } from "@/lib/chain/quote-typed-data";
import { newRentalKeys } from "@/lib/rentals/new-rental-keys";
import { createTestDatabase, dropTestDatabase } from "../test/test-database";

const SIZE = Number(process.argv[2]);
const EMAILS = process.argv.includes("--emails");
if (!Number.isInteger(SIZE) || SIZE < 1) throw new Error("usage: release-sweep-run.ts SIZE [--emails]");
const DATABASE = "ars_bench_sweep";
const OWNERS = 100;
const RENTERS = 20;
const HOUR = 3_600;
// Every transaction of the seeding is sent with these (anvil signs for its unlocked and
// impersonated accounts): no estimate per transaction, and a fee cap far above the base fee, which
// grows 12.5 % with every full block of the seeding.
const GAS = { gas: toHex(300_000), maxFeePerGas: toHex(10n ** 15n), maxPriorityFeePerGas: toHex(10n ** 9n) };

process.env.DATABASE_URL = await createTestDatabase(DATABASE);
// Never mail anyone from a benchmark: without --emails nobody has an address and Resend is off;
// with it, Resend is a local stand-in that counts what it is asked.
const resendRequests: number[] = [];
let sentAt: number[] = [];
const resend = EMAILS ? await startResendStandIn() : null;
process.env.RESEND_API_KEY = resend ? "re_bench_sweep_emails" : "";
if (resend) process.env.RESEND_BASE_URL = resend.url;
const { db } = await import("@/lib/db");
const { releaseEndedRentals } = await import("@/lib/chain/release-ended-rentals");
const { admin, chainDate, escrowAbi, FEE, newAddress, signer, startPayments, treasury, USDC } = await import(
  "../test/chain/payments-harness"
);

const p = await startPayments();
// A run that throws (a seeding transaction reverted, say) leaves no anvil behind: stop() signals it at once.
process.once("exit", () => void p.stop());
const { e, publicClient, testClient } = p;
// The bench's own client for the bulk work: requests made in the same tick go to anvil in JSON-RPC
// batches of 500, never retried (a resent transaction is refused as already known), with the time
// a busy machine takes and no limit on a response's size (10,000 receipts or events).
const transport = http(p.rpcUrl, { batch: { batchSize: 500 }, retryCount: 0, timeout: 300_000, maxResponseBodySize: false });
const rpc = createPublicClient({ chain: publicClient.chain, transport });
const rpcWallet = createWalletClient({ chain: publicClient.chain, transport });

type Call = { from: Address; to: Address; data: Hex };

/** Sends the calls with automining off (in order per sender) 2,000 at a time, mines them, and
 * checks that every one succeeded. */
async function sendAll(calls: Call[]): Promise<void> {
  const nonces = new Map<Address, number>();
  for (const from of new Set(calls.map((c) => c.from))) {
    nonces.set(from, await publicClient.getTransactionCount({ address: from, blockTag: "pending" }));
  }
  const first = (await publicClient.getBlockNumber()) + 1n;
  await testClient.setAutomine(false);
  for (let start = 0; start < calls.length; start += 2_000) {
    const chunk = calls.slice(start, start + 2_000).map((call) => {
      const nonce = nonces.get(call.from)!;
      nonces.set(call.from, nonce + 1);
      return rpc.request({ method: "eth_sendTransaction", params: [{ ...call, ...GAS, nonce: toHex(nonce) }] } as never);
    });
    await Promise.all(chunk);
    // Mined before the next chunk is sent: anvil builds each block from its whole pool.
    while (Number((await testClient.getTxpoolStatus()).pending) > 0) await testClient.mine({ blocks: 1 });
  }
  await testClient.setAutomine(true);
  const last = await publicClient.getBlockNumber();
  const blocks = Array.from({ length: Number(last - first + 1n) }, (_, i) => toHex(first + BigInt(i)));
  const receipts = (
    await Promise.all(
      blocks.map(
        (block) =>
          rpc.request({ method: "eth_getBlockReceipts", params: [block] } as never) as Promise<{ status: Hex; transactionHash: Hex }[]>,
      ),
    )
  ).flat();
  if (receipts.length !== calls.length) throw new Error(`seeding: ${receipts.length} of ${calls.length} transactions mined`);
  const failed = receipts.find((r) => r.status !== "0x1");
  if (failed) throw new Error(`seeding: transaction ${failed.transactionHash} reverted: ${await revertReason(failed.transactionHash)}`);
}

// anvil mines reverting transactions too: their revert data comes from a trace.
async function revertReason(hash: Hex): Promise<string> {
  const trace = (await publicClient.request({ method: "debug_traceTransaction", params: [hash, { tracer: "callTracer" }] } as never)) as {
    output?: Hex;
  };
  try {
    return decodeErrorResult({ abi: escrowAbi, data: trace.output! }).errorName;
  } catch {
    return trace.output ?? "no revert data";
  }
}

const seconds = (since: number) => (performance.now() - since) / 1000;

// ---------------------------------------------------------------- seeding (not timed)
const seedStarted = performance.now();
const owners = Array.from({ length: OWNERS }, () => ({ id: randomUUID(), payout: newAddress() }));
const renters = Array.from({ length: RENTERS }, () => ({ id: randomUUID(), address: newAddress() }));
const agents = owners.map((owner, i) => ({
  id: randomUUID(),
  ownerId: owner.id,
  payout: owner.payout,
  price: BigInt(1 + (i % 50)) * USDC,
}));
await db.account.createMany({
  data: [
    ...owners.map((o) => ({ id: o.id, walletAddress: o.payout.toLowerCase(), email: EMAILS ? `owner-${o.id}@example.com` : null })),
    ...renters.map((r) => ({ id: r.id, walletAddress: r.address.toLowerCase(), email: EMAILS ? `renter-${r.id}@example.com` : null })),
  ],
});
await db.agent.createMany({
  data: agents.map((a, i) => ({
    id: a.id,
    ownerId: a.ownerId,
    name: `Sweep Agent ${i}`,
    description: "Release sweep benchmark agent.",
    category: "other",
    channels: ["API" as const],
    pricePerHour: a.price,
    status: "available" as const,
  })),
});

// Rental i: renter i % RENTERS, agent i % OWNERS, an hour at that agent's price.
const deadline = (await p.now()) + BigInt(HOUR);
const quotes = Array.from({ length: SIZE }, (_, i) => {
  const agent = agents[i % OWNERS];
  const keys = newRentalKeys();
  return {
    agent,
    renter: renters[i % RENTERS],
    sessionKey: keys.sessionKey,
    quote: {
      rentalId: keys.escrowId,
      renter: renters[i % RENTERS].address,
      owner: agent.payout,
      price: agent.price,
      fee: FEE,
      duration: BigInt(HOUR),
      deadline,
    },
  };
});

// Renters hold exactly what they pay and approve the escrow once; owners and the treasury already
// hold USDC (the steady state bench/gas.ts measures: no payout pays for a fresh balance slot).
const owed = new Map<Address, bigint>();
for (const { quote } of quotes) owed.set(quote.renter, (owed.get(quote.renter) ?? 0n) + quote.price + quote.fee);
for (const r of renters) {
  await testClient.impersonateAccount({ address: r.address });
  await testClient.setBalance({ address: r.address, value: 10n ** 22n });
}
const token = (from: Address, functionName: "mint" | "approve", args: readonly unknown[]): Call => ({
  from,
  to: e.token,
  data: encodeFunctionData({ abi: e.tokenAbi, functionName, args } as never),
});
await sendAll([
  ...renters.map((r) => token(admin.address, "mint", [r.address, owed.get(r.address)])),
  ...[...owners.map((o) => o.payout), treasury.address].map((payee) => token(admin.address, "mint", [payee, 1n])),
  ...renters.map((r) => token(r.address, "approve", [e.escrow, maxUint256])),
]);

// The service's quote signatures, made by anvil (the signer is one of its unlocked accounts).
const signStarted = performance.now();
const domain = quoteDomain(publicClient.chain.id, e.escrow);
const signatures: Hex[] = [];
for (let start = 0; start < SIZE; start += 2_000) {
  signatures.push(
    ...(await Promise.all(
      quotes
        .slice(start, start + 2_000)
        .map(({ quote }) =>
          rpcWallet.signTypedData({ account: signer.address, domain, types: quoteTypes, primaryType: "Quote", message: quote }),
        ),
    )),
  );
}
const signS = seconds(signStarted);

const payStarted = performance.now();
const fromBlock = (await publicClient.getBlockNumber()) + 1n;
await sendAll(
  quotes.map(({ quote }, i) => ({
    from: quote.renter,
    to: e.escrow,
    data: encodeFunctionData({ abi: escrowAbi, functionName: "createRental", args: [quote, signatures[i]] }),
  })),
);
const created = await rpc.getContractEvents({ address: e.escrow, abi: escrowAbi, eventName: "RentalCreated", fromBlock });
const payS = seconds(payStarted);

// The rows confirmRentalPayment would have left: active, with the block times and the paying
// transaction. One multi-row insert.
const byId = new Map(created.map((log) => [log.args.id!, log]));
const rows = quotes.map(({ agent, renter, sessionKey, quote }) => {
  const log = byId.get(quote.rentalId)!;
  return {
    id: randomUUID(),
    escrowId: quote.rentalId,
    sessionKey,
    agentId: agent.id,
    renterId: renter.id,
    startsAt: new Date(Number(log.args.startsAt) * 1000),
    endsAt: new Date(Number(log.args.endsAt) * 1000),
    price: quote.price,
    renterAddress: renter.address.toLowerCase(),
    payoutAddress: agent.payout.toLowerCase(),
    createTxHash: log.transactionHash,
  };
});
const column = <K extends keyof (typeof rows)[number]>(key: K) => rows.map((r) => r[key]);
await db.$executeRaw`
  INSERT INTO rentals (id, escrow_id, session_key, agent_id, renter_id, status, duration_type, channel, starts_at, ends_at,
                       price_micro_usdc, fee_micro_usdc, renter_address, payout_address, create_tx_hash, updated_at)
  SELECT id, escrow_id, session_key, agent_id, renter_id, 'active', 'hour', 'API', starts_at, ends_at,
         price, ${FEE}, renter_address, payout_address, create_tx_hash, now()
  FROM unnest(${column("id")}::uuid[], ${column("escrowId")}::text[], ${column("sessionKey")}::text[], ${column("agentId")}::uuid[],
              ${column("renterId")}::uuid[], ${column("startsAt")}::timestamptz[], ${column("endsAt")}::timestamptz[],
              ${column("price")}::bigint[], ${column("renterAddress")}::text[], ${column("payoutAddress")}::text[],
              ${column("createTxHash")}::text[])
       AS r(id, escrow_id, session_key, agent_id, renter_id, starts_at, ends_at, price, renter_address, payout_address, create_tx_hash)`;
await db.$executeRawUnsafe("ANALYZE rentals");

// Every rental ends within the hour after its block; an hour and a minute later all have.
await p.increaseTime(HOUR + 60);
const seedS = seconds(seedStarted);
console.log(
  `  seeded ${SIZE.toLocaleString("en")} paid, ended rentals in ${seedS.toFixed(1)} s (quotes signed ${signS.toFixed(1)} s, ` +
    `paid on chain ${payS.toFixed(1)} s)`,
);

// ---------------------------------------------------------------- the sweep (timed)
const payees = [...owners.map((o) => o.payout), treasury.address];
const balances = async () => Promise.all(payees.map((payee) => e.balanceOf(payee)));
const before = await balances();
const sweepFrom = (await publicClient.getBlockNumber()) + 1n;
const now = await chainDate(p);
const sweepStarted = performance.now();
const requestsBefore = resendRequests.length;
const runs: Awaited<ReturnType<typeof releaseEndedRentals>>[] = [];
// As the cron calls it (no options but the clock), one run after another until one finds nothing.
const runSeconds: number[] = [];
for (;;) {
  const runStarted = performance.now();
  const run = await releaseEndedRentals({ now });
  runSeconds.push(seconds(runStarted));
  runs.push(run);
  if (run.claimed + run.sent + run.completed + run.reconciled === 0) break;
  if (runs.length > SIZE) throw new Error("the sweep does not finish");
}
const sweepS = seconds(sweepStarted);
const requestsDuringSweep = resendRequests.length - requestsBefore;
const total = (key: "sent" | "replaced" | "failed") => runs.reduce((sum, run) => sum + run[key], 0);
console.log(
  `  swept in ${sweepS.toFixed(1)} s: ${runs.length - 1} runs (${runSeconds.map((s) => s.toFixed(1)).join(" + ")} s), ` +
    `${total("sent")} transactions sent`,
);

// ---------------------------------------------------------------- what it did, checked
const releases = await db.chainTransaction.findMany({ where: { kind: "release" } });
const receipts = await Promise.all(releases.map((tx) => rpc.getTransactionReceipt({ hash: tx.hash as Hex })));
const gas = receipts.reduce((sum, r) => sum + r.gasUsed, 0n);
const released = await rpc.getContractEvents({
  address: e.escrow,
  abi: escrowAbi,
  eventName: "RentalReleased",
  fromBlock: sweepFrom,
});
const times = new Map<Hex, number>();
for (const event of released) times.set(event.args.id!, (times.get(event.args.id!) ?? 0) + 1);
const expected = new Map<Address, bigint>([[treasury.address, 0n]]);
for (const { quote } of quotes) {
  expected.set(quote.owner, (expected.get(quote.owner) ?? 0n) + quote.price);
  expected.set(treasury.address, expected.get(treasury.address)! + quote.fee);
}
const after = await balances();
const completed = await db.rental.count({ where: { status: "completed" } });
const told = await db.notification.count({ where: { kind: "rental-ended" } });
// With --emails: the renter's and the owner's e-mail of every rental, queued and not sent.
const queued = EMAILS ? await db.email.count({ where: { transport: "resend", status: "queued" } }) : 0;
const problems = [
  released.length !== SIZE && `${released.length} RentalReleased events for ${SIZE} rentals`,
  quotes.some(({ quote }) => times.get(quote.rentalId) !== 1) && "a rental not released exactly once",
  completed !== SIZE && `${completed} of ${SIZE} rows completed`,
  told !== SIZE && `${told} "rental ended" notices for ${SIZE} rentals`,
  receipts.some((r) => r.status !== "success") && "a release transaction reverted",
  payees.some((payee, i) => after[i] - before[i] !== expected.get(payee)) && "a payee's balance does not add up",
  ((await e.totalOwed()) !== 0n || (await e.balanceOf(e.escrow)) !== 0n) && "the escrow still holds something",
  EMAILS && queued !== 2 * SIZE && `${queued} e-mails queued for ${2 * SIZE} (a renter's and an owner's per rental)`,
  EMAILS && requestsDuringSweep > 0 && `the sweep called Resend ${requestsDuringSweep} times: its e-mails must only be queued`,
].filter(Boolean);

const figures = {
  size: SIZE,
  seedS,
  signS,
  payS,
  sweepS,
  runs: runs.length - 1, // the last one found nothing
  transactions: releases.length,
  replaced: total("replaced"),
  failed: total("failed"),
  gas: gas.toString(),
  gasPerRental: Number(gas) / SIZE,
  emails: EMAILS ? { queued, requestsDuringSweep } : null,
  problems,
};
mkdirSync("bench-results", { recursive: true });
writeFileSync(`bench-results/sweep-${SIZE}${EMAILS ? "-emails" : ""}.json`, JSON.stringify(figures, null, 2));
await db.$disconnect();
await resend?.close();
await p.stop();
await dropTestDatabase(DATABASE);

/** A stand-in for api.resend.com with its manners: every answer after 100 ms, and 429 (Retry-After:
 * 1) for a request past 2 in the last second. Counts every request it receives. */
async function startResendStandIn() {
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const now = Date.now();
      resendRequests.push(now);
      sentAt = sentAt.filter((t) => t > now - 1000);
      const limited = sentAt.length >= 2;
      if (!limited) sentAt.push(now);
      setTimeout(() => {
        const json = { "content-type": "application/json" };
        if (limited)
          res
            .writeHead(429, { ...json, "retry-after": "1" })
            .end(JSON.stringify({ statusCode: 429, name: "rate_limit_exceeded", message: "Too many requests" }));
        else res.writeHead(200, json).end(JSON.stringify({ id: randomUUID() }));
      }, 100);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
