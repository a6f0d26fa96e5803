import "server-only";
import {
  getAddress,
  type Hex,
  keccak256,
  parseEventLogs,
  parseTransaction,
  type TransactionReceipt,
  TransactionReceiptNotFoundError,
} from "viem";
import { blockTime } from "@/lib/chain/block-time";
import { chainClients } from "@/lib/chain/chain-clients";
import { backOffRentals } from "@/lib/chain/find-releasable-rentals";
import { abi as escrowAbi } from "@/lib/chain/generated/RentalEscrow";
import type { Clock, ReleaseSummary } from "@/lib/chain/release-ended-rentals";
import { broadcastRelease } from "@/lib/chain/send-release";
import { db } from "@/lib/db";
import type { ChainTransaction } from "@/lib/generated/prisma/client";
import { completeRentals } from "@/lib/rentals/complete-rentals";
import { recordSettlement } from "@/lib/rentals/record-settlement";
import { rentalIdsByEscrowId } from "@/lib/rentals/rental-ids-by-escrow-id";

// A sent transaction without a receipt this long is re-signed with higher fees (same nonce).
const STUCK_AFTER_MS = 90_000;

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
export async function settleRelease(row: ChainTransaction, receipt: TransactionReceipt, summary: ReleaseSummary, now: Date): Promise<void> {
  const { config } = chainClients();
  if (receipt.status === "success") {
    const released = parseEventLogs({
      abi: escrowAbi,
      eventName: "RentalReleased",
      logs: receipt.logs.filter((log) => log.address.toLowerCase() === config.escrow.toLowerCase()),
    }).map((event) => event.args.id);
    const ids = [...(await rentalIdsByEscrowId(released)).values()];
    summary.completed += await completeRentals(ids);
    await recordSettlement(ids, { at: await blockTime(receipt.blockNumber), txHash: receipt.transactionHash });
    await db.chainTransaction.updateMany({
      where: { id: row.id, status: { in: ["prepared", "sent"] } },
      data: { status: "confirmed", hash: receipt.transactionHash, confirmedAt: new Date() },
    });
    const skipped = await db.rental.findMany({
      where: { releaseTxId: row.id, status: "active" },
      select: { id: true, escrowId: true, releaseSkips: true },
    });
    await backOffRentals(skipped, { releaseTxId: row.id }, summary, now, { releaseTxId: null });
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
export async function settleReleasesInFlight(summary: ReleaseSummary, clock: Clock, now: Date): Promise<void> {
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
      await settleRelease(row, receipt, summary, now);
      continue;
    }
    if (row.status === "prepared") {
      if (await broadcastRelease(row, clock)) summary.sent++;
      continue;
    }
    if (mined > row.nonce) {
      // The nonce went to a transaction none of our hashes names: free the rentals; releaseMany
      // skips any that were in fact released, and the event reader completes those.
      await abandon(row, "nonce used by another transaction", summary);
      continue;
    }
    if (clock().getTime() - (row.sentAt ?? row.createdAt).getTime() < STUCK_AFTER_MS) {
      await broadcastRelease(row, clock); // cheap, and covers a node that dropped it
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
    data: {
      hash: keccak256(rawTx),
      rawTx,
      replacedHashes: { push: row.hash! },
      sentAt: clock(),
      attempts: { increment: 1 },
    },
  });
  if (count === 0) return false; // another sweep got there first
  await broadcastRelease(await db.chainTransaction.findUniqueOrThrow({ where: { id: row.id } }), clock);
  return true;
}
