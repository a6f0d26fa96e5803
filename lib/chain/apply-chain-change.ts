import "server-only";
import { type ChainState, readChainStates } from "@/lib/chain/chain-state";
import { rememberBlock } from "@/lib/chain/remember-block";
import { db } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";

/** The block (and transaction, and event) a change to the database comes from. */
export type ChainSource = { event: string; blockNumber: bigint; blockHash: string; txHash: string };

export type ChainChange = { rentalId: string; before: ChainState; after: ChainState };

/**
 * Applies what a block says about some rentals (`write`, a set of conditional updates) under their
 * row locks, and journals every field it changed with the value it replaced (`chain_facts`) and
 * the block's hash (`chain_blocks`), so a reorg that takes the block away can undo exactly that
 * (lib/chain/undo-reorgs.ts). A write that changes nothing (the fact was already applied, by the
 * event reader or the release sweep) journals nothing. Returns what changed.
 */
export async function applyChainChange(
  rentalIds: string[],
  source: ChainSource,
  write: (tx: Prisma.TransactionClient) => Promise<unknown>,
): Promise<ChainChange[]> {
  if (rentalIds.length === 0) return [];
  return db.$transaction(
    async (tx) => {
      // In id order, so two writers locking overlapping sets wait for each other instead of deadlocking.
      await tx.$queryRaw`SELECT id FROM rentals WHERE id = ANY(${rentalIds}::uuid[]) ORDER BY id FOR UPDATE`;
      const before = await readChainStates(tx, rentalIds);
      await write(tx);
      const after = await readChainStates(tx, rentalIds);
      const changes: ChainChange[] = [];
      for (const [rentalId, was] of before) {
        const now = after.get(rentalId)!;
        const changed = Object.keys(now).filter((key) => now[key] !== was[key]);
        if (changed.length === 0) continue;
        changes.push({
          rentalId,
          before: Object.fromEntries(changed.map((key) => [key, was[key]])),
          after: Object.fromEntries(changed.map((key) => [key, now[key]])),
        });
      }
      if (changes.length > 0) {
        await tx.chainFact.createMany({
          data: changes.map((change) => ({
            ...change,
            blockNumber: source.blockNumber,
            txHash: source.txHash.toLowerCase(),
            event: source.event,
          })),
        });
        await rememberBlock(tx, source.blockNumber, source.blockHash);
      }
      return changes;
    },
    { timeout: 30_000 },
  );
}

/** How many of the changes moved a rental to `status`. */
export function becameStatus(changes: ChainChange[], status: string): number {
  return changes.filter((change) => change.after["rental.status"] === status).length;
}
