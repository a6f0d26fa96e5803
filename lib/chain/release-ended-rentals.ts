import "server-only";
import { fillNonceGaps } from "@/lib/chain/fill-nonce-gaps";
import { findReleasableRentals } from "@/lib/chain/find-releasable-rentals";
import { broadcastRelease, prepareRelease, waitForRelease } from "@/lib/chain/send-release";
import { settleRelease, settleReleasesInFlight } from "@/lib/chain/settle-releases";
import { currentFees } from "@/lib/chain/transaction-fees";
import { undoReorgs } from "@/lib/chain/undo-reorgs";
import { db } from "@/lib/db";
import type { ChainTransaction } from "@/lib/generated/prisma/client";
import { completeRentals } from "@/lib/rentals/complete-rentals";
import { completeEndedTrials } from "@/lib/trials/complete-ended-trials";

export type ReleaseSummary = {
  completedWithoutEscrow: number; // development rentals that never went through the chain
  claimed: number;
  sent: number;
  replaced: number; // transactions re-signed at the same nonce (refused by the node, or stuck)
  completed: number;
  failed: number;
  // Ended rentals the escrow would not settle (settleMany skips them), found by reading the
  // escrow's own record of each before it is sent:
  reconciled: number; // released, refunded or disputed on chain already: the event reader, caught up, now says so
  backedOff: number; // not releasable (unknown to this escrow, not ended there): tried again later
  gaveUp: number; // not releasable GIVE_UP_AFTER sweeps in a row: no longer tried (see docs/operations.md)
  filled: number; // nonce gaps filled with zero-value transfers to the operator itself
  waitingForFees: boolean; // the base fee is above CHAIN_MAX_FEE_GWEI: nothing was signed this run
  skipped: boolean; // another sweep was preparing a transaction; this one left it alone
};

export type ReleaseOptions = { now?: Date; batchSize?: number; waitMs?: number; maxBatches?: number };

/** The run's clock: `now`, advancing with real time. */
export type Clock = () => Date;

// settleMany costs ~45k gas a rental at most: 50 stay far below a block's limit.
const DEFAULT_BATCH = 50;

/**
 * The release sweep (cron, every minute): ended rentals are checked against the escrow's record,
 * claimed without blocking a concurrent run, settled on chain by their measured availability with
 * `settleMany` from the operator key (docs/availability.md) — the transaction and its nonce recorded before broadcasting, every batch of the
 * run sent before any receipt is waited for — and completed once the receipt is CHAIN_CONFIRMATIONS
 * deep and shows the RentalReleased events. Rentals the escrow would not release are settled by
 * the event reader (caught up here) or backed off, never sent again and again ahead of the others.
 * First a reorg that took away blocks the database took facts from is undone; then transactions
 * still in flight from earlier runs are settled: re-broadcast if lost, re-signed at the current
 * fees (at most CHAIN_MAX_FEE_GWEI) if refused or stuck, their rentals freed if they failed; and a
 * nonce nothing holds below them is filled.
 */
export async function releaseEndedRentals(options: ReleaseOptions = {}): Promise<ReleaseSummary> {
  const now = options.now ?? new Date();
  // The run's clock: `now`, advancing with real time. Send times are recorded on it and a stuck
  // transaction's age is measured on it; the wall clock would disagree with a given `now`.
  const started = Date.now();
  const clock: Clock = () => new Date(now.getTime() + (Date.now() - started));
  const summary: ReleaseSummary = {
    ...{ completedWithoutEscrow: 0, claimed: 0, sent: 0, replaced: 0, completed: 0, failed: 0 },
    ...{ reconciled: 0, backedOff: 0, gaveUp: 0, filled: 0, waitingForFees: false, skipped: false },
  };

  summary.completedWithoutEscrow = await completeUnpaidRentals(now);
  await undoReorgs();
  const fees = await currentFees();
  if (!fees) {
    summary.waitingForFees = true;
    console.warn("[release] the base fee is above CHAIN_MAX_FEE_GWEI: nothing is signed until it falls (docs/operations.md)");
  }
  await settleReleasesInFlight(summary, clock, now, fees);
  const run = { examined: new Set<string>(), readerCaughtUp: false };
  const sent: ChainTransaction[] = [];
  for (let batch = 0; fees && batch < (options.maxBatches ?? 10); batch++) {
    const releasable = await findReleasableRentals(now, options.batchSize ?? DEFAULT_BATCH, run, summary);
    if (releasable.length === 0) break;
    const prepared = await prepareRelease(releasable, fees, now);
    if (prepared === "busy") {
      summary.skipped = true;
      break;
    }
    if (!prepared) break; // a concurrent sweep claimed them
    summary.claimed += prepared.rentalCount;
    if (!(await broadcastRelease(prepared.tx, clock))) break; // the node refuses: the next run retries
    summary.sent++;
    sent.push(prepared.tx);
  }
  if (fees && !summary.skipped) summary.filled = await fillNonceGaps(fees, clock);
  // Every batch is in flight before any receipt is waited for (their nonces follow each other),
  // so a run waits about one block, not one per batch. What is not mined and final within `waitMs`
  // is settled by the next run.
  const deadline = Date.now() + (options.waitMs ?? 20_000);
  for (const tx of sent) {
    const mined = await waitForRelease(tx, deadline - Date.now());
    if (mined) await settleRelease(tx, mined.receipt, summary, now);
  }
  return summary;
}

// Rentals made without payment (operator CLI, dev seed) hold no escrow: they just end. Free
// trials (docs/trials.md) end quietly after their 30 days: no "rental ended" e-mail with uptime and
// refunds that never applied to them.
async function completeUnpaidRentals(now: Date): Promise<number> {
  const trials = await completeEndedTrials(now);
  const ended = await db.rental.findMany({
    where: { status: "active", endsAt: { lte: now }, createTxHash: null, trial: false },
    select: { id: true },
  });
  return (
    trials +
    (await completeRentals(
      ended.map((r) => r.id),
      null,
    ))
  );
}
