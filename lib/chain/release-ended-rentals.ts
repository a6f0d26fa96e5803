import "server-only";
import type { Hex } from "viem";
import { findReleasableRentals } from "@/lib/chain/find-releasable-rentals";
import { broadcastRelease, prepareRelease, waitForRelease } from "@/lib/chain/send-release";
import { settleRelease, settleReleasesInFlight } from "@/lib/chain/settle-releases";
import { db } from "@/lib/db";
import type { ChainTransaction } from "@/lib/generated/prisma/client";
import { completeRentals } from "@/lib/rentals/complete-rentals";

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

/** The run's clock: `now`, advancing with real time. */
export type Clock = () => Date;

// releaseMany costs ~45k gas a rental: 50 stay far below a block's limit.
const DEFAULT_BATCH = 50;

/**
 * The release sweep (cron, every minute): ended rentals are checked against the escrow's record,
 * claimed without blocking a concurrent run, released on chain with `releaseMany` from the
 * operator key — the transaction and its nonce recorded before broadcasting, every batch of the
 * run sent before any receipt is waited for — and completed once the receipt shows the
 * RentalReleased events. Rentals the escrow would not release are settled from its record
 * (released, refunded, disputed) or backed off, never sent again and again ahead of the others.
 * Transactions still in flight from earlier runs are settled first: re-broadcast if lost,
 * replaced with higher fees if stuck, their rentals freed for a retry if they failed.
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
  await settleReleasesInFlight(summary, clock, now);
  const examined = new Set<string>();
  const sent: ChainTransaction[] = [];
  for (let batch = 0; batch < (options.maxBatches ?? 10); batch++) {
    const releasable = await findReleasableRentals(now, options.batchSize ?? DEFAULT_BATCH, examined, summary);
    if (releasable.length === 0) break;
    const prepared = await prepareRelease(releasable);
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
  // Every batch is in flight before any receipt is waited for (their nonces follow each other),
  // so a run waits about one block, not one per batch. What is not mined within `waitMs` is
  // settled by the next run.
  const deadline = Date.now() + (options.waitMs ?? 20_000);
  for (const tx of sent) {
    const receipt = await waitForRelease(tx.hash as Hex, deadline - Date.now());
    if (receipt) await settleRelease(tx, receipt, summary, now);
  }
  return summary;
}

// Rentals made without payment (operator CLI, dev seed) hold no escrow: they just end.
async function completeUnpaidRentals(now: Date): Promise<number> {
  const ended = await db.rental.findMany({
    where: { status: "active", endsAt: { lte: now }, createTxHash: null },
    select: { id: true },
  });
  return completeRentals(ended.map((r) => r.id));
}
