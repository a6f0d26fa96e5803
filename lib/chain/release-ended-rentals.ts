import "server-only";
import {
  encodeFunctionData,
  getAddress,
  keccak256,
  parseEventLogs,
  parseTransaction,
  TransactionReceiptNotFoundError,
  type Hex,
  type TransactionReceipt,
} from "viem";
import { chainClients } from "@/lib/chain/chain-clients";
import { abi as escrowAbi } from "@/lib/chain/generated/RentalEscrow";
import { db } from "@/lib/db";
import type { ChainTransaction, Prisma } from "@/lib/generated/prisma/client";
import { completeRentals } from "@/lib/rentals/complete-rentals";
import { rentalIdsByEscrowId } from "@/lib/rentals/rental-ids-by-escrow-id";

export type ReleaseSummary = {
  completedWithoutEscrow: number; // development rentals that never went through the chain
  claimed: number;
  sent: number;
  replaced: number;
  completed: number;
  failed: number;
  // Ended rentals the escrow would not release (releaseMany skips them), found by reading the
  // escrow's own record of each before it is sent:
  reconciled: number; // released, refunded or disputed on chain already: the row now says so
  backedOff: number; // not releasable (unknown to this escrow, not ended there): tried again later
  gaveUp: number; // not releasable GIVE_UP_AFTER sweeps in a row: no longer tried (see docs/operations.md)
  skipped: boolean; // another sweep was preparing a transaction; this one left it alone
};

export type ReleaseOptions = { now?: Date; batchSize?: number; waitMs?: number; maxBatches?: number };

// releaseMany costs ~45k gas a rental: 50 stay far below a block's limit.
const DEFAULT_BATCH = 50;
// A sent transaction without a receipt this long is re-signed with higher fees (same nonce).
const STUCK_AFTER_MS = 90_000;
// Serialises nonce allocation between sweeps (pg advisory lock id).
const NONCE_LOCK = 7_270_001;
// A rental the escrow would not release is tried again after 1, 2, 4 … minutes, and given up
// (left for a person: docs/operations.md) when it still is not releasable at the 10th try,
// about 8.5 hours after the first.
const RETRY_BASE_MS = 60_000;
export const GIVE_UP_AFTER = 10;
// Escrow records read per run at most: a flood of unreleasable rows (say, after a change of escrow
// address) is worked through over a few runs instead of holding one up for minutes.
const MAX_CHECKS = 2_000;
// The escrow's Status enum (contracts/RentalEscrow.sol).
const OnChain = { None: 0, Active: 1, Disputed: 2, Released: 3, Refunded: 4 } as const;

/**
 * The release sweep (cron, every minute): ended rentals are checked against the escrow's record,
 * claimed without blocking a concurrent run, released on chain with `releaseMany` from the
 * operator key — the transaction and its nonce recorded before broadcasting — and completed once
 * the receipt shows the RentalReleased events. Rentals the escrow would not release are settled
 * from its record (released, refunded, disputed) or backed off, never sent again and again ahead
 * of the others. Transactions still in flight from earlier runs are settled first: re-broadcast
 * if lost, replaced with higher fees if stuck, their rentals freed for a retry if they failed.
 */
export async function releaseEndedRentals(options: ReleaseOptions = {}): Promise<ReleaseSummary> {
  const now = options.now ?? new Date();
  // The run's clock: `now`, advancing with real time. Send times are recorded on it and a stuck
  // transaction's age is measured on it; the wall clock would disagree with a given `now`.
  const started = Date.now();
  const clock: Clock = () => new Date(now.getTime() + (Date.now() - started));
  const summary: ReleaseSummary = {
    ...{ completedWithoutEscrow: 0, claimed: 0, sent: 0, replaced: 0, completed: 0, failed: 0 },
    ...{ reconciled: 0, backedOff: 0, gaveUp: 0, skipped: false },
  };

  summary.completedWithoutEscrow = await completeUnpaidRentals(now);
  await settleInFlight(summary, clock, now);
  const examined = new Set<string>();
  for (let batch = 0; batch < (options.maxBatches ?? 10); batch++) {
    const releasable = await findReleasable(now, options.batchSize ?? DEFAULT_BATCH, examined, summary);
    if (releasable.length === 0) break;
    const prepared = await claimAndPrepare(releasable);
    if (prepared === "busy") {
      summary.skipped = true;
      break;
    }
    if (!prepared) break; // a concurrent sweep claimed them
    summary.claimed += prepared.rentalCount;
    if (!(await broadcast(prepared.tx, clock))) break; // the node refuses: the next run retries
    summary.sent++;
    const receipt = await waitForReceipt(prepared.tx.hash as Hex, options.waitMs ?? 20_000);
    if (receipt) await settle(prepared.tx, receipt, summary, now);
  }
  return summary;
}

type Clock = () => Date;

// Rentals made without payment (operator CLI, dev seed) hold no escrow: they just end.
async function completeUnpaidRentals(now: Date): Promise<number> {
  const ended = await db.rental.findMany({
    where: { status: "active", endsAt: { lte: now }, createTxHash: null },
    select: { id: true },
  });
  return completeRentals(ended.map((r) => r.id));
}

type Due = { id: string; escrowId: string; releaseSkips: number };

/**
 * Up to `want` ended rentals that the escrow will release: each due rental's record is read from
 * the chain (`rentals(id)`, at the confirmed depth) before it may go into a transaction. Those the
 * escrow would skip are dealt with here — settled from the record when the chain has moved on,
 * backed off otherwise — so they never take a batch's place from a releasable one.
 */
async function findReleasable(now: Date, want: number, examined: Set<string>, summary: ReleaseSummary): Promise<string[]> {
  const releasable: string[] = [];
  while (releasable.length < want && examined.size < MAX_CHECKS) {
    const due: Due[] = await db.rental.findMany({
      where: {
        status: "active",
        endsAt: { lte: now },
        releaseTxId: null,
        createTxHash: { not: null },
        releaseSkips: { lt: GIVE_UP_AFTER },
        OR: [{ releaseRetryAt: null }, { releaseRetryAt: { lte: now } }],
        id: { notIn: [...examined] },
      },
      // Rentals never skipped first: those the escrow keeps refusing cannot crowd out fresh ones.
      orderBy: [{ releaseSkips: "asc" }, { endsAt: "asc" }],
      take: Math.min(want - releasable.length, MAX_CHECKS - examined.size),
      select: { id: true, escrowId: true, releaseSkips: true },
    });
    if (due.length === 0) break;
    for (const rental of due) examined.add(rental.id);

    const { time, records } = await readEscrowRecords(due.map((r) => r.escrowId as Hex));
    const verdicts = records.map((record) => verdictOf(record, time));
    const withVerdict = (verdict: Verdict) => due.filter((_, i) => verdicts[i] === verdict);
    const ids = (rows: Due[]) => rows.map((r) => r.id);
    releasable.push(...ids(withVerdict("release")));
    // The chain moved on without the event reader having told us (it lags, or missed it).
    summary.reconciled += await completeRentals(ids(withVerdict("released")));
    summary.reconciled += (await db.rental.updateMany({
      where: { id: { in: ids(withVerdict("refunded")) }, status: { in: ["active", "disputed"] } },
      data: { status: "cancelled" },
    })).count;
    summary.reconciled += (await db.rental.updateMany({
      where: { id: { in: ids(withVerdict("disputed")) }, status: "active" },
      data: { status: "disputed" },
    })).count;
    await backOff(withVerdict("skip"), {}, summary, now);
  }
  return releasable;
}

type Verdict = "release" | "released" | "refunded" | "disputed" | "skip";

// What to do with a rental, from the escrow's record of it. "skip": releaseMany would skip it and
// nothing says why — unknown to this escrow (paid on another escrow address, or its payment undone
// by a reorg) or not yet ended by the chain's clock — so it is tried again later.
function verdictOf(record: { status: number; endsAt: number }, time: bigint): Verdict {
  switch (record.status) {
    case OnChain.Active:
      return BigInt(record.endsAt) <= time ? "release" : "skip";
    case OnChain.Released:
      return "released";
    case OnChain.Refunded:
      return "refunded";
    case OnChain.Disputed:
      return "disputed";
    default:
      return "skip";
  }
}

// The escrow's record of each id, read at the block `CHAIN_CONFIRMATIONS` deep (so a record
// settled there is final), and that block's time.
async function readEscrowRecords(escrowIds: Hex[]) {
  const { publicClient, config } = chainClients();
  const head = await publicClient.getBlockNumber({ cacheTime: 0 });
  const depth = BigInt(config.confirmations - 1);
  const blockNumber = head > depth ? head - depth : 0n;
  const [block, records] = await Promise.all([
    publicClient.getBlock({ blockNumber }),
    Promise.all(
      escrowIds.map((id) => publicClient.readContract({ address: config.escrow, abi: escrowAbi, functionName: "rentals", args: [id], blockNumber })),
    ),
  ]);
  return { time: block.timestamp, records: records.map(([, , endsAt, status]) => ({ endsAt, status })) };
}

/**
 * One more sweep that could not release these rentals: each is tried again after a delay that
 * doubles with every skip (counted from the run's `now`, which its claims are measured against
 * too), and given up at GIVE_UP_AFTER. Conditional on the skip count read, so two sweeps looking
 * at the same rental count it once.
 */
async function backOff(rentals: Due[], where: Prisma.RentalWhereInput, summary: ReleaseSummary, now: Date, data: Prisma.RentalUncheckedUpdateManyInput = {}) {
  const bySkips = new Map<number, Due[]>();
  for (const r of rentals) bySkips.set(r.releaseSkips, [...(bySkips.get(r.releaseSkips) ?? []), r]);
  for (const [skips, group] of bySkips) {
    const next = skips + 1;
    const givenUp = next >= GIVE_UP_AFTER;
    const { count } = await db.rental.updateMany({
      where: { id: { in: group.map((r) => r.id) }, status: "active", releaseSkips: skips, ...where },
      data: { ...data, releaseSkips: next, releaseRetryAt: givenUp ? null : new Date(now.getTime() + RETRY_BASE_MS * 2 ** (next - 1)) },
    });
    if (!givenUp) summary.backedOff += count;
    else if (count > 0) {
      summary.gaveUp += count;
      const named = group.slice(0, 5).map((r) => r.escrowId).join(", ") + (group.length > 5 ? ` and ${group.length - 5} more` : "");
      console.warn(`[release] gave up on ${count} rental(s) the escrow did not release in ${GIVE_UP_AFTER} sweeps (escrow ids ${named}); see docs/operations.md`);
    }
  }
}

async function claimAndPrepare(ids: string[]) {
  const { publicClient, operatorClient, operator, config } = chainClients();
  return db.$transaction(
    async (tx) => {
      const [{ locked }] = await tx.$queryRaw<{ locked: boolean }[]>`SELECT pg_try_advisory_xact_lock(${NONCE_LOCK}) AS locked`;
      if (!locked) return "busy" as const;
      // Still unclaimed: a concurrent sweep may have taken some since they were checked.
      const due = await tx.$queryRaw<{ id: string; escrowId: Hex }[]>`
        SELECT id::text AS id, escrow_id AS "escrowId" FROM rentals
        WHERE id = ANY(${ids}::uuid[]) AND status = 'active' AND release_tx_id IS NULL
        ORDER BY ends_at FOR UPDATE SKIP LOCKED`;
      if (due.length === 0) return null;

      const from = operator.address.toLowerCase();
      const [{ max }] = await tx.$queryRaw<{ max: number | null }[]>`
        SELECT max(nonce) AS max FROM chain_transactions WHERE from_address = ${from}`;
      const onChain = await publicClient.getTransactionCount({ address: operator.address, blockTag: "pending" });
      const nonce = Math.max(onChain, (max ?? -1) + 1);
      const request = await operatorClient.prepareTransactionRequest({
        to: config.escrow,
        data: encodeFunctionData({ abi: escrowAbi, functionName: "releaseMany", args: [due.map((r) => r.escrowId)] }),
        nonce,
      });
      const rawTx = await operatorClient.signTransaction(request);
      const created = await tx.chainTransaction.create({
        data: {
          kind: "release",
          fromAddress: from,
          nonce,
          hash: keccak256(rawTx),
          rawTx,
          status: "prepared",
          rentals: { connect: due.map((r) => ({ id: r.id })) },
        },
      });
      return { tx: created, rentalCount: due.length };
    },
    { timeout: 30_000 },
  );
}

// Sends the signed bytes; "already known" means an earlier attempt got through.
async function broadcast(row: ChainTransaction, clock: Clock): Promise<boolean> {
  const { publicClient } = chainClients();
  try {
    await publicClient.sendRawTransaction({ serializedTransaction: row.rawTx as Hex });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (!/already known|nonce too low|already imported/i.test(message)) {
      console.error(`[release] broadcasting ${row.hash} (nonce ${row.nonce}) failed; will retry: ${message.split("\n")[0]}`);
      return false;
    }
  }
  await db.chainTransaction.updateMany({
    where: { id: row.id, status: "prepared" },
    data: { status: "sent", sentAt: row.sentAt ?? clock() },
  });
  return true;
}

async function waitForReceipt(hash: Hex, timeoutMs: number): Promise<TransactionReceipt | null> {
  if (timeoutMs <= 0) return null;
  const { publicClient, config } = chainClients();
  try {
    return await publicClient.waitForTransactionReceipt({ hash, timeout: timeoutMs, confirmations: config.confirmations });
  } catch {
    return null; // the next run settles it
  }
}

async function findReceipt(row: ChainTransaction): Promise<TransactionReceipt | null> {
  const { publicClient } = chainClients();
  for (const hash of [row.hash, ...row.replacedHashes].filter(Boolean) as Hex[]) {
    try {
      return await publicClient.getTransactionReceipt({ hash });
    } catch (error) {
      if (!(error instanceof TransactionReceiptNotFoundError)) throw error;
    }
  }
  return null;
}

// Completes what the receipt shows released. Rentals of the batch the escrow skipped (released by
// someone else or cancelled meanwhile, say) are backed off: the next look at them reads the
// escrow's record. A reverted transaction's rentals are freed for the next sweep.
async function settle(row: ChainTransaction, receipt: TransactionReceipt, summary: ReleaseSummary, now: Date): Promise<void> {
  const { config } = chainClients();
  if (receipt.status === "success") {
    const released = parseEventLogs({
      abi: escrowAbi,
      eventName: "RentalReleased",
      logs: receipt.logs.filter((log) => log.address.toLowerCase() === config.escrow.toLowerCase()),
    }).map((event) => event.args.id);
    summary.completed += await completeRentals([...(await rentalIdsByEscrowId(released)).values()]);
    await db.chainTransaction.updateMany({
      where: { id: row.id, status: { in: ["prepared", "sent"] } },
      data: { status: "confirmed", hash: receipt.transactionHash, confirmedAt: new Date() },
    });
    const skipped = await db.rental.findMany({
      where: { releaseTxId: row.id, status: "active" },
      select: { id: true, escrowId: true, releaseSkips: true },
    });
    await backOff(skipped, { releaseTxId: row.id }, summary, now, { releaseTxId: null });
    return;
  }
  summary.failed++;
  await db.chainTransaction.updateMany({
    where: { id: row.id, status: { in: ["prepared", "sent"] } },
    data: { status: "failed", error: "reverted on chain" },
  });
  await db.rental.updateMany({ where: { releaseTxId: row.id, status: "active" }, data: { releaseTxId: null } });
}

// Looks after transactions earlier runs left in flight. No lock is held across the RPC calls:
// every write is conditional on the row being as it was read (status and `attempts`), so two
// sweeps looking at the same transaction cannot both replace it.
async function settleInFlight(summary: ReleaseSummary, clock: Clock, now: Date): Promise<void> {
  const { publicClient, operator } = chainClients();
  const rows = await db.chainTransaction.findMany({
    where: { kind: "release", status: { in: ["prepared", "sent"] } },
    orderBy: { nonce: "asc" },
  });
  for (const row of rows) {
    // The sender's nonce count is read before the receipts are looked up: a transaction mined
    // in between is then found by its receipt, instead of being taken for one whose nonce
    // another transaction used (which would mark a confirmed release failed).
    const mined = await publicClient.getTransactionCount({ address: getAddress(row.fromAddress), blockTag: "latest" });
    const receipt = await findReceipt(row);
    if (receipt) {
      await settle(row, receipt, summary, now);
      continue;
    }
    if (row.status === "prepared") {
      if (await broadcast(row, clock)) summary.sent++;
      continue;
    }
    if (mined > row.nonce) {
      // The nonce went to a transaction none of our hashes names: free the rentals; releaseMany
      // skips any that were in fact released, and the event reader completes those.
      await abandon(row, "nonce used by another transaction", summary);
      continue;
    }
    if (clock().getTime() - (row.sentAt ?? row.createdAt).getTime() < STUCK_AFTER_MS) {
      await broadcast(row, clock); // cheap, and covers a node that dropped it
      continue;
    }
    if (row.fromAddress !== operator.address.toLowerCase()) {
      // Signed by a previous operator key (it was rotated): this key cannot replace it. Its
      // rentals go back to the queue; releaseMany skips any the old transaction releases after all.
      await abandon(row, "stuck, and signed by a previous operator key", summary);
      continue;
    }
    if (await replace(row, clock)) summary.replaced++;
  }
}

async function abandon(row: ChainTransaction, error: string, summary: ReleaseSummary): Promise<void> {
  const { count } = await db.chainTransaction.updateMany({
    where: { id: row.id, status: "sent", attempts: row.attempts },
    data: { status: "failed", error },
  });
  if (count === 1) {
    summary.failed++;
    await db.rental.updateMany({ where: { releaseTxId: row.id, status: "active" }, data: { releaseTxId: null } });
  }
}

// Same nonce, calldata and gas limit, fees raised by at least the 12.5% nodes require (here 25%).
// The gas limit is kept, not estimated again: a node estimates against its pending state, where
// the stuck original has already released the batch, and would return the cost of skipping it
// all — the replacement then runs out of gas.
async function replace(row: ChainTransaction, clock: Clock): Promise<boolean> {
  const { publicClient, operatorClient, config } = chainClients();
  const previous = parseTransaction(row.rawTx as Hex);
  const fresh = await publicClient.estimateFeesPerGas();
  const bump = (old: bigint | undefined, now: bigint) => {
    const raised = ((old ?? 0n) * 125n) / 100n + 1n;
    return now > raised ? now : raised;
  };
  const request = await operatorClient.prepareTransactionRequest({
    to: config.escrow,
    data: previous.data,
    nonce: row.nonce,
    gas: previous.gas,
    maxFeePerGas: bump(previous.maxFeePerGas, fresh.maxFeePerGas),
    maxPriorityFeePerGas: bump(previous.maxPriorityFeePerGas, fresh.maxPriorityFeePerGas),
  });
  const rawTx = await operatorClient.signTransaction(request);
  const { count } = await db.chainTransaction.updateMany({
    where: { id: row.id, status: "sent", attempts: row.attempts },
    data: { hash: keccak256(rawTx), rawTx, replacedHashes: { push: row.hash! }, sentAt: clock(), attempts: { increment: 1 } },
  });
  if (count === 0) return false; // another sweep got there first
  await broadcast(await db.chainTransaction.findUniqueOrThrow({ where: { id: row.id } }), clock);
  return true;
}
