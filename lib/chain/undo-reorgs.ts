import "server-only";
import { BlockNotFoundError } from "viem";
import { chainClients } from "@/lib/chain/chain-clients";
import { type ChainState, readChainStates, writeChainState } from "@/lib/chain/chain-state";
import { reopenMessagePayments } from "@/lib/chain/record-message-payment";
import { db } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";

/**
 * Blocks below the final one whose hashes (and the changes taken from them) are kept. A reorg
 * deeper than CHAIN_CONFIRMATIONS is rare; one deeper than this is not expected on any chain the
 * service runs on (Ethereum finalizes in 64 blocks; Base's unsafe head is posted to L1 in minutes),
 * and is reported rather than undone. 1,000 blocks are about 33 minutes on Base.
 */
export const REORG_WINDOW = 1_000n;

// Serialises rewinds (pg advisory lock id; the release sweep's nonce lock is 7_270_001).
const REWIND_LOCK = 7_270_002;
// Stored blocks compared with the chain at a time while looking for where it forked.
const LOOKUP_BATCH = 20;

export type Rewind = { toBlock: bigint; undone: number; reopened: number };

/**
 * Finds out whether the chain changed under what the database took from it: the newest block kept
 * (`chain_blocks`) is compared with the chain's block at that height. When it differs, the newest
 * kept block that still matches is where the chains forked, and everything taken from above it is
 * undone: each change, newest first, gives back the values it replaced (a payment that vanished
 * leaves its rental pending again, a release active again, an extension its quote unredeemed); the operator's transactions mined
 * there go back in flight (a paid answer's payment "settling" again) (`prepared`: the next sweep broadcasts the same signed bytes at the same
 * nonce, so the nonce the database records is never left above the chain's); the event reader's
 * cursor goes back to the fork, so it reads the new blocks and re-derives what they say.
 * Returns null when nothing changed.
 */
export async function undoReorgs(): Promise<Rewind | null> {
  if (await unchanged()) return null;
  return db.$transaction(
    async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(${REWIND_LOCK})`;
      // Another run may have undone it while this one waited for the lock.
      if (await unchanged()) return null;
      return rewindTo(tx, await forkPoint());
    },
    { timeout: 60_000 },
  );
}

// The newest block kept is still the chain's (or nothing is kept yet).
async function unchanged(): Promise<boolean> {
  const top = await db.chainBlock.findFirst({ orderBy: { number: "desc" } });
  return !top || (await hashAt(top.number)) === top.hash;
}

async function hashAt(blockNumber: bigint): Promise<string | null> {
  const block = await chainClients()
    .publicClient.getBlock({ blockNumber })
    .catch((error: unknown) => {
      if (error instanceof BlockNotFoundError) return null; // the new chain is shorter
      throw error;
    });
  return block?.hash?.toLowerCase() ?? null;
}

// The newest kept block the chain still has.
async function forkPoint(): Promise<bigint> {
  const kept = await db.chainBlock.findMany({ orderBy: { number: "desc" } });
  for (let i = 0; i < kept.length; i += LOOKUP_BATCH) {
    const batch = kept.slice(i, i + LOOKUP_BATCH);
    const hashes = await Promise.all(batch.map((block) => hashAt(block.number)));
    const same = batch.findIndex((block, j) => hashes[j] === block.hash);
    if (same >= 0) return batch[same].number;
  }
  const oldest = kept[kept.length - 1].number;
  console.error(
    `[escrow] the chain changed below every block kept (the last ${REORG_WINDOW} final blocks): what blocks from ${oldest} on changed is undone, anything older cannot be. Run npm run cli -- chain:reconcile --fix (docs/operations.md).`,
  );
  // Every change kept is undone; the reader also reads a window below them again, which costs
  // only RPC calls (applying an event twice changes nothing).
  const below = oldest - 1n - REORG_WINDOW;
  return below > 0n ? below : 0n;
}

async function rewindTo(tx: Prisma.TransactionClient, fork: bigint): Promise<Rewind> {
  const facts = await tx.chainFact.findMany({ where: { blockNumber: { gt: fork } }, orderBy: { id: "desc" } });
  const rentalIds = [...new Set(facts.map((fact) => fact.rentalId))];
  await tx.$queryRaw`SELECT id FROM rentals WHERE id = ANY(${rentalIds}::uuid[]) ORDER BY id FOR UPDATE`;
  const states = await readChainStates(tx, rentalIds);
  const restored = new Map<string, ChainState>();
  for (const fact of facts) {
    const state = states.get(fact.rentalId);
    if (!state) continue;
    const [before, after] = [fact.before as ChainState, fact.after as ChainState];
    // A field is given back only if it still holds what this change wrote: a later change
    // from a block that stays (applied out of order by the other writer) is kept.
    for (const [key, value] of Object.entries(after)) {
      if (state[key] !== value) continue;
      state[key] = before[key];
      restored.set(fact.rentalId, { ...restored.get(fact.rentalId), [key]: before[key] });
    }
  }
  for (const [rentalId, fields] of restored) await writeChainState(tx, rentalId, fields);
  // An extension undone is unpaid again: its quote may be redeemed (and the owner told) anew.
  const extensions = facts.filter((fact) => fact.event === "RentalExtended").map((fact) => fact.txHash);
  if (extensions.length > 0) {
    await tx.rentalExtension.updateMany({
      where: { txHash: { in: extensions } },
      data: { appliedAt: null, txHash: null, notifiedAt: null },
    });
  }
  await tx.chainFact.deleteMany({ where: { blockNumber: { gt: fork } } });
  const reopened = await tx.chainTransaction.updateMany({
    where: { status: "confirmed", blockNumber: { gt: fork } },
    data: { status: "prepared", confirmedAt: null, blockNumber: null, sentAt: null },
  });
  // Paid answers settled by those transactions are settling again until they are mined again.
  await reopenMessagePayments(tx);
  await tx.chainBlock.deleteMany({ where: { number: { gt: fork } } });
  await tx.chainCursor.updateMany({ where: { blockNumber: { gt: fork } }, data: { blockNumber: fork } });
  console.warn(
    `[escrow] reorg: the chain changed after block ${fork}; ${facts.length} change(s) to ${rentalIds.length} rental(s) undone, ${reopened.count} transaction(s) back in flight; the blocks are read again`,
  );
  return { toBlock: fork, undone: facts.length, reopened: reopened.count };
}
