import "server-only";
import type { Hex } from "viem";
import { chainClients } from "@/lib/chain/chain-clients";
import { finalBlockNumber } from "@/lib/chain/final-block";
import { abi as escrowAbi } from "@/lib/chain/generated/RentalEscrow";
import type { ReleaseSummary } from "@/lib/chain/release-ended-rentals";
import { syncEscrowEvents } from "@/lib/chain/sync-escrow-events";
import { db } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";

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

export type DueRental = { id: string; escrowId: string; releaseSkips: number };

/** What one sweep run has done so far: the rentals it read, and whether it caught the event reader up. */
export type ReleaseRun = { examined: Set<string>; readerCaughtUp: boolean };

/**
 * Up to `want` ended rentals that the escrow will release: each due rental's record is read from
 * the chain (`rentals(id)`, at the final block) before it may go into a transaction. Those the
 * escrow would skip are dealt with here — when the chain has settled them (released, refunded,
 * disputed) the event reader is behind, and is caught up (once a run) so it applies the events
 * themselves, with their blocks (a reorg can then undo them); the rest are backed off — so they
 * never take a batch's place from a releasable one.
 */
export async function findReleasableRentals(now: Date, want: number, run: ReleaseRun, summary: ReleaseSummary): Promise<string[]> {
  const { examined } = run;
  const releasable: string[] = [];
  while (releasable.length < want && examined.size < MAX_CHECKS) {
    const due: DueRental[] = await db.rental.findMany({
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
    const ids = (rows: DueRental[]) => rows.map((r) => r.id);
    releasable.push(...ids(withVerdict("release")));
    // The chain moved on without the event reader having told us (it lags): it reads the events.
    const settled = withVerdict("settled");
    let stillActive = settled;
    if (settled.length > 0 && !run.readerCaughtUp) {
      run.readerCaughtUp = true;
      await syncEscrowEvents();
      const rows = await db.rental.findMany({ where: { id: { in: ids(settled) }, status: "active" }, select: { id: true } });
      const active = new Set(rows.map((r) => r.id));
      stillActive = settled.filter((r) => active.has(r.id));
      summary.reconciled += settled.length - stillActive.length;
    }
    await backOffRentals([...withVerdict("skip"), ...stillActive], {}, summary, now);
  }
  return releasable;
}

type Verdict = "release" | "settled" | "skip";

// What to do with a rental, from the escrow's record of it. "settled": released, refunded or
// disputed on chain. "skip": settleMany would skip it and nothing says why — unknown to this
// escrow (paid on another escrow address, or its payment undone by a reorg) or not yet ended by the
// chain's clock — so it is tried again later.
function verdictOf(record: { status: number; endsAt: number }, time: bigint): Verdict {
  switch (record.status) {
    case OnChain.Active:
      return BigInt(record.endsAt) <= time ? "release" : "skip";
    case OnChain.Released:
    case OnChain.Refunded:
    case OnChain.Disputed:
      return "settled";
    default:
      return "skip";
  }
}

// The escrow's record of each id, read at the final block (CHAIN_CONFIRMATIONS deep, so a record
// settled there is final), and that block's time.
async function readEscrowRecords(escrowIds: Hex[]) {
  const { publicClient, config } = chainClients();
  const blockNumber = await finalBlockNumber();
  const [block, records] = await Promise.all([
    publicClient.getBlock({ blockNumber }),
    Promise.all(
      escrowIds.map((id) =>
        publicClient.readContract({
          address: config.escrow,
          abi: escrowAbi,
          functionName: "rentals",
          args: [id],
          blockNumber,
        }),
      ),
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
export async function backOffRentals(
  rentals: DueRental[],
  where: Prisma.RentalWhereInput,
  summary: ReleaseSummary,
  now: Date,
  data: Prisma.RentalUncheckedUpdateManyInput = {},
) {
  const bySkips = new Map<number, DueRental[]>();
  for (const r of rentals) bySkips.set(r.releaseSkips, [...(bySkips.get(r.releaseSkips) ?? []), r]);
  for (const [skips, group] of bySkips) {
    const next = skips + 1;
    const givenUp = next >= GIVE_UP_AFTER;
    const { count } = await db.rental.updateMany({
      where: { id: { in: group.map((r) => r.id) }, status: "active", releaseSkips: skips, ...where },
      data: {
        ...data,
        releaseSkips: next,
        releaseRetryAt: givenUp ? null : new Date(now.getTime() + RETRY_BASE_MS * 2 ** (next - 1)),
      },
    });
    if (!givenUp) summary.backedOff += count;
    else if (count > 0) {
      summary.gaveUp += count;
      const named =
        group
          .slice(0, 5)
          .map((r) => r.escrowId)
          .join(", ") + (group.length > 5 ? ` and ${group.length - 5} more` : "");
      console.warn(
        `[release] gave up on ${count} rental(s) the escrow did not release in ${GIVE_UP_AFTER} sweeps (escrow ids ${named}); see docs/operations.md`,
      );
    }
  }
}
