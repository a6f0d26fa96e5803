import "server-only";
import { getAddress, type Hex, parseEventLogs, type TransactionReceipt } from "viem";
import { recordAvailabilitySettlements } from "@/lib/availability/record-availability-settlements";
import { blockTime } from "@/lib/chain/block-time";
import { chainClients } from "@/lib/chain/chain-clients";
import { finalBlockNumber } from "@/lib/chain/final-block";
import { backOffRentals } from "@/lib/chain/find-releasable-rentals";
import { reclaimNonces } from "@/lib/chain/free-nonces";
import { abi as escrowAbi } from "@/lib/chain/generated/RentalEscrow";
import { type MinedReceipt, readReceipt } from "@/lib/chain/read-receipt";
import { failMessagePayments, recordMessageReceipt } from "@/lib/chain/record-message-payment";
import type { Clock, ReleaseSummary } from "@/lib/chain/release-ended-rentals";
import { rememberBlock } from "@/lib/chain/remember-block";
import { resignTransaction } from "@/lib/chain/resign-transaction";
import { broadcastRelease } from "@/lib/chain/send-release";
import type { Fees } from "@/lib/chain/transaction-fees";
import { db } from "@/lib/db";
import type { ChainTransaction } from "@/lib/generated/prisma/client";
import { completeRentals } from "@/lib/rentals/complete-rentals";
import { rentalIdsByEscrowId } from "@/lib/rentals/rental-ids-by-escrow-id";

// A sent transaction without a receipt this long is re-signed with higher fees (same nonce).
const STUCK_AFTER_MS = 90_000;

// The first of the row's versions that is mined, however deep.
async function findReceipt(row: ChainTransaction): Promise<MinedReceipt | null> {
  for (const hash of [row.hash, ...row.replacedHashes].filter(Boolean) as Hex[]) {
    const mined = await readReceipt(hash);
    if (mined) return mined;
  }
  return null;
}

// Settles a transaction from its final receipt (CHAIN_CONFIRMATIONS deep): completes what the
// receipt shows released, in a journaled chain change with the release's block, and records the
// block that mined it, so a reorg deeper than that undoes both. Rentals of the batch the escrow
// skipped (released by someone else or cancelled meanwhile, say) are backed off: the next look at
// them reads the escrow's record. A reverted transaction's rentals are freed for the next sweep.
// A paid answer's transaction ("message") settles its payment instead (record-message-payment.ts).
export async function settleRelease(row: ChainTransaction, receipt: TransactionReceipt, summary: ReleaseSummary, now: Date): Promise<void> {
  const { config } = chainClients();
  if (row.kind === "message") {
    if ((await recordMessageReceipt(row, receipt)) === "failed") summary.failed++;
    return;
  }
  const mined = { blockNumber: receipt.blockNumber, hash: receipt.transactionHash };
  if (receipt.status === "success") {
    const logs = receipt.logs.filter((log) => log.address.toLowerCase() === config.escrow.toLowerCase());
    const released = parseEventLogs({ abi: escrowAbi, eventName: "RentalReleased", logs }).map((event) => event.args.id);
    const settled = parseEventLogs({ abi: escrowAbi, eventName: "RentalSettled", logs }).map(({ args }) => ({
      escrowId: args.id,
      refund: args.refund,
      slaHash: args.slaHash,
    }));
    const ids = [...(await rentalIdsByEscrowId(released)).values()];
    const at = { blockNumber: receipt.blockNumber, blockHash: receipt.blockHash, txHash: receipt.transactionHash };
    // What was paid back for down minutes first, so the end-of-rental messages can say it.
    await recordAvailabilitySettlements(settled, { event: "RentalSettled", ...at });
    const source = { event: "RentalReleased", ...at };
    summary.completed += await completeRentals(ids, { source, at: await blockTime(receipt.blockNumber) });
    await db.$transaction(async (tx) => {
      await tx.chainTransaction.updateMany({
        where: { id: row.id, status: { in: ["prepared", "sent"] } },
        data: { status: "confirmed", ...mined, confirmedAt: new Date() },
      });
      await rememberBlock(tx, receipt.blockNumber, receipt.blockHash);
    });
    const skipped = await db.rental.findMany({
      where: { releaseTxId: row.id, status: "active" },
      select: { id: true, escrowId: true, releaseSkips: true },
    });
    await backOffRentals(skipped, { releaseTxId: row.id }, summary, now, { releaseTxId: null });
    return;
  }
  summary.failed++;
  await db.$transaction(async (tx) => {
    await tx.chainTransaction.updateMany({
      where: { id: row.id, status: { in: ["prepared", "sent"] } },
      data: { status: "failed", ...mined, error: "reverted on chain" },
    });
    await rememberBlock(tx, receipt.blockNumber, receipt.blockHash);
  });
  await db.rental.updateMany({ where: { releaseTxId: row.id, status: "active" }, data: { releaseTxId: null } });
}

/**
 * Looks after the operator's transactions earlier runs left in flight (releases, paid answers'
 * payForMessage and nonce fillers), in nonce order, once the nonces the database holds agree with the chain's
 * (lib/chain/free-nonces.ts: a confirmed one the chain lost is in flight again): one mined and
 * final is settled; one mined but not yet final is left to deepen; one whose nonce another
 * transaction used (in a final block) is marked failed and its rentals go back to the queue; one
 * recorded but not yet taken by the node is broadcast; one sent less than 90 s ago is re-broadcast
 * (cheap, and covers a node that dropped it); either, refused by the node, is re-signed at the
 * current fees; one still unmined after 90 s is re-signed with higher fees; one signed by a
 * previous operator key (rotated since) that is stuck cannot be re-signed: it is given up and its
 * rentals re-queued. `fees` null: the base fee is above CHAIN_MAX_FEE_GWEI, and nothing is
 * re-signed. No lock is held across the RPC calls: every write is conditional on the row being as
 * it was read (status and `attempts`).
 */
export async function settleReleasesInFlight(summary: ReleaseSummary, clock: Clock, now: Date, fees: Fees | null): Promise<void> {
  const { publicClient, operator } = chainClients();
  await reclaimNonces();
  const rows = await db.chainTransaction.findMany({
    where: { status: { in: ["prepared", "sent"] } },
    orderBy: { nonce: "asc" },
  });
  if (rows.length === 0) return;
  const final = await finalBlockNumber();
  for (const row of rows) {
    // The nonces used in final blocks are read before the receipts are looked up: a transaction
    // mined in between is then found by its receipt, instead of being taken for one whose nonce
    // another transaction used (which would mark a confirmed release failed).
    const used = await publicClient.getTransactionCount({ address: getAddress(row.fromAddress), blockNumber: final });
    const mined = await findReceipt(row);
    if (mined) {
      if (mined.final) await settleRelease(row, mined.receipt, summary, now);
      continue;
    }
    if (used > row.nonce) {
      // The nonce went to a transaction none of our hashes names: free the rentals; settleMany
      // skips any that were in fact settled, and the event reader completes those.
      await abandon(row, "nonce used by another transaction", summary);
      continue;
    }
    const ours = row.fromAddress === operator.address.toLowerCase();
    const fresh = clock().getTime() - (row.sentAt ?? row.createdAt).getTime() < STUCK_AFTER_MS;
    if (fresh || (ours && row.status === "prepared")) {
      const taken = await broadcastRelease(row, clock);
      if (taken && row.status === "prepared") summary.sent++;
      if (!taken && ours && fees && (await resignTransaction(row, fees, "refused", clock))) summary.replaced++;
      continue;
    }
    if (!ours) {
      // Signed by a previous operator key (it was rotated): this key cannot replace it. Its
      // rentals go back to the queue; settleMany skips any the old transaction settles after all.
      await abandon(row, "stuck, and signed by a previous operator key", summary);
      continue;
    }
    if (fees && (await resignTransaction(row, fees, "stuck", clock))) summary.replaced++;
  }
}

async function abandon(row: ChainTransaction, error: string, summary: ReleaseSummary): Promise<void> {
  const { count } = await db.chainTransaction.updateMany({
    where: { id: row.id, status: row.status, attempts: row.attempts },
    data: { status: "failed", error },
  });
  if (count === 1) {
    summary.failed++;
    await db.rental.updateMany({ where: { releaseTxId: row.id, status: "active" }, data: { releaseTxId: null } });
    await failMessagePayments(row.id, error);
  }
}
