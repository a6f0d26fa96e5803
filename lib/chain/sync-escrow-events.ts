import "server-only";
import { applyEscrowEvent } from "@/lib/chain/apply-escrow-event";
import { blockTime } from "@/lib/chain/block-time";
import { chainClients } from "@/lib/chain/chain-clients";
import { finalBlockNumber } from "@/lib/chain/final-block";
import { abi as escrowAbi } from "@/lib/chain/generated/RentalEscrow";
import { rememberBlock } from "@/lib/chain/remember-block";
import { REORG_WINDOW, undoReorgs } from "@/lib/chain/undo-reorgs";
import { db } from "@/lib/db";
import { tellDisputeChats } from "@/lib/disputes/tell-dispute-chats";
import { env } from "@/lib/env";

const CURSOR = "escrow-events";
const CHUNK_BLOCKS = 2_000n;
const MAX_CHUNKS = 25n;

export type SyncSummary = {
  fromBlock: string;
  toBlock: string;
  events: number;
  activated: number;
  extended: number;
  disputed: number;
  cancelled: number;
  completed: number;
  expiredQuotes: number;
  // A reorg deeper than CHAIN_CONFIRMATIONS found at the start of the run: the block the reader
  // went back to (null: none), and how many changes to rentals it undid.
  rewoundTo: string | null;
  undone: number;
};

/**
 * The event reader (cron, every minute): reads the escrow's events from a stored block cursor up
 * to the final block (CHAIN_CONFIRMATIONS deep), so the database follows the chain whatever the
 * browsers do — a paid rental whose confirm call never came becomes active, and disputes,
 * resolutions, cancellations and releases made on chain arrive — and takes nothing from a block a
 * shallower reorg could still take away. First it checks that the blocks it took facts from are
 * still the chain's, and undoes what a deeper reorg took away (lib/chain/undo-reorgs.ts); the
 * blocks are then read again. Every handler is idempotent and the cursor only moves forward
 * (a conditional update) except in that rewind, so two runs at once at worst read the same blocks
 * twice.
 */
export async function syncEscrowEvents(): Promise<SyncSummary> {
  const rewind = await undoReorgs();
  const cursor = await db.chainCursor.findUnique({ where: { name: CURSOR } });
  const from = cursor ? cursor.blockNumber + 1n : env.ESCROW_START_BLOCK;
  const final = await finalBlockNumber();
  const to = final < from + CHUNK_BLOCKS * MAX_CHUNKS - 1n ? final : from + CHUNK_BLOCKS * MAX_CHUNKS - 1n;
  const summary: SyncSummary = {
    fromBlock: String(from),
    toBlock: String(to),
    ...{ events: 0, activated: 0, extended: 0, disputed: 0, cancelled: 0, completed: 0, expiredQuotes: 0 },
    ...{ rewoundTo: rewind ? String(rewind.toBlock) : null, undone: rewind?.undone ?? 0 },
  };
  let read = from - 1n;
  for (let start = from; start <= to; start += CHUNK_BLOCKS) {
    const end = start + CHUNK_BLOCKS - 1n < to ? start + CHUNK_BLOCKS - 1n : to;
    const chunk = await readChunk(start, end);
    if (!chunk) break; // the chain changed while it was read: the next run checks and reads again
    for (const event of chunk.events) {
      summary.events++;
      const outcome = await applyEscrowEvent(event);
      if (outcome) summary[outcome]++;
    }
    await db.$transaction(async (tx) => {
      await rememberBlock(tx, end, chunk.endHash);
      await tx.$executeRaw`
        INSERT INTO chain_cursors (name, block_number, updated_at) VALUES (${CURSOR}, ${end}, now())
        ON CONFLICT (name) DO UPDATE SET block_number = EXCLUDED.block_number, updated_at = now()
        WHERE chain_cursors.block_number < EXCLUDED.block_number`;
    });
    read = end;
  }
  summary.toBlock = String(to < from ? to : read); // from > to: nothing read
  if (read === final) {
    summary.expiredQuotes = await dropExpiredQuotes(final);
    await forgetOldBlocks(final);
  }
  await tellDisputeChats(); // chat users a platform refused before
  return summary;
}

// The escrow's logs of some blocks, and the hash of the last one, read before and after the logs:
// if it changed, the logs may mix two chains, and the chunk is left for the next run.
async function readChunk(fromBlock: bigint, toBlock: bigint) {
  const { publicClient, config } = chainClients();
  const hashOf = async (blockNumber: bigint) => (await publicClient.getBlock({ blockNumber })).hash;
  const endHash = await hashOf(toBlock);
  const events = await publicClient.getContractEvents({ address: config.escrow, abi: escrowAbi, fromBlock, toBlock, strict: true });
  if ((await hashOf(toBlock)) !== endHash) return null;
  return { events, endHash };
}

// A quote can only be redeemed in a block no later than its deadline. A rental still pending once
// every block up to one past the deadline is final and older than the reorg window was never paid,
// and no reorg the reader can undo would bring its payment back: it is removed. (Until then it
// stays: a payment re-included after a reorg is activated, whatever the wall clock says.)
async function dropExpiredQuotes(final: bigint): Promise<number> {
  if (final < REORG_WINDOW) return 0;
  const settled = await blockTime(final - REORG_WINDOW);
  const { count } = await db.rental.deleteMany({ where: { status: "pending", quoteDeadline: { lt: settled } } });
  return count;
}

// Hashes and changes older than the reorg window can no longer be undone: they are let go.
async function forgetOldBlocks(final: bigint): Promise<void> {
  if (final < REORG_WINDOW) return;
  const oldest = final - REORG_WINDOW;
  await db.chainFact.deleteMany({ where: { blockNumber: { lt: oldest } } });
  await db.chainBlock.deleteMany({ where: { number: { lt: oldest } } });
}
