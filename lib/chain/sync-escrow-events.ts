import "server-only";
import { blockTime } from "@/lib/chain/block-time";
import { chainClients } from "@/lib/chain/chain-clients";
import { abi as escrowAbi } from "@/lib/chain/generated/RentalEscrow";
import { db } from "@/lib/db";
import { recordDisputeOpened } from "@/lib/disputes/record-dispute-opened";
import { recordDisputeResolved } from "@/lib/disputes/record-dispute-resolved";
import { env } from "@/lib/env";
import { activatePaidRental } from "@/lib/rentals/activate-paid-rental";
import { completeRentals } from "@/lib/rentals/complete-rentals";
import { recordSettlement } from "@/lib/rentals/record-settlement";
import { rentalIdByEscrowId } from "@/lib/rentals/rental-ids-by-escrow-id";

const CURSOR = "escrow-events";
const CHUNK_BLOCKS = 2_000n;
const MAX_CHUNKS = 25n;

export type SyncSummary = {
  fromBlock: string;
  toBlock: string;
  events: number;
  activated: number;
  disputed: number;
  cancelled: number;
  completed: number;
  expiredQuotes: number;
};

/**
 * The event reader (cron, every minute): reads the escrow's events from a stored block cursor, so
 * the database follows the chain whatever the browsers do — a paid rental whose confirm call never
 * came becomes active, and disputes, resolutions, cancellations and releases made on chain arrive.
 * Every handler is idempotent and the cursor only moves forward (a conditional update), so two runs
 * at once at worst read the same blocks twice.
 */
export async function syncEscrowEvents(): Promise<SyncSummary> {
  const { publicClient, config } = chainClients();
  const cursor = await db.chainCursor.findUnique({ where: { name: CURSOR } });
  const from = cursor ? cursor.blockNumber + 1n : env.ESCROW_START_BLOCK;
  // cacheTime 0: a head cached by viem (up to 4 s) would leave out blocks mined since.
  const head = (await publicClient.getBlockNumber({ cacheTime: 0 })) - BigInt(config.confirmations - 1);
  const to = head < from + CHUNK_BLOCKS * MAX_CHUNKS - 1n ? head : from + CHUNK_BLOCKS * MAX_CHUNKS - 1n;
  const summary: SyncSummary = {
    fromBlock: String(from),
    toBlock: String(to),
    ...{ events: 0, activated: 0, disputed: 0, cancelled: 0, completed: 0, expiredQuotes: 0 },
  };
  if (to < from) return summary;

  for (let start = from; start <= to; start += CHUNK_BLOCKS) {
    const end = start + CHUNK_BLOCKS - 1n < to ? start + CHUNK_BLOCKS - 1n : to;
    for (const event of await readEvents(start, end)) {
      summary.events++;
      await apply(event, summary);
    }
  }
  await db.$executeRaw`
    INSERT INTO chain_cursors (name, block_number, updated_at) VALUES (${CURSOR}, ${to}, now())
    ON CONFLICT (name) DO UPDATE SET block_number = EXCLUDED.block_number, updated_at = now()
    WHERE chain_cursors.block_number < EXCLUDED.block_number`;
  if (to === head) summary.expiredQuotes = await dropExpiredQuotes(to);
  return summary;
}

// A quote can only be redeemed in a block no later than its deadline. Once every block up to one
// past the deadline has been read, a rental still pending was never paid: it is removed.
async function dropExpiredQuotes(readUpTo: bigint): Promise<number> {
  const { count } = await db.rental.deleteMany({ where: { status: "pending", quoteDeadline: { lt: await blockTime(readUpTo) } } });
  return count;
}

function readEvents(fromBlock: bigint, toBlock: bigint) {
  const { publicClient, config } = chainClients();
  return publicClient.getContractEvents({ address: config.escrow, abi: escrowAbi, fromBlock, toBlock, strict: true });
}

async function apply(event: Awaited<ReturnType<typeof readEvents>>[number], summary: SyncSummary): Promise<void> {
  switch (event.eventName) {
    case "RentalCreated": {
      const result = await activatePaidRental({ ...event.args, transactionHash: event.transactionHash });
      if (result.outcome === "activated") summary.activated++;
      return;
    }
    case "DisputeOpened": {
      const id = await rentalIdByEscrowId(event.args.id);
      if (!id) return;
      summary.disputed += (await db.rental.updateMany({ where: { id, status: "active" }, data: { status: "disputed" } })).count;
      await recordDisputeOpened(id, { openedAt: await blockTime(event.blockNumber), txHash: event.transactionHash });
      return;
    }
    case "RentalCancelled": {
      const id = await rentalIdByEscrowId(event.args.id);
      if (!id) return;
      summary.cancelled += await cancel(id);
      await recordSettlement([id], await settlementOf(event));
      return;
    }
    case "DisputeResolved": {
      const id = await rentalIdByEscrowId(event.args.id);
      if (!id) return;
      // A full refund pays the rental out here; any other outcome is released by a RentalReleased.
      if (await applyResolution(id, event.args.refund, summary)) await recordSettlement([id], await settlementOf(event));
      await recordDisputeResolved(id, {
        resolvedAt: await blockTime(event.blockNumber),
        how: event.args.how,
        txHash: event.transactionHash,
        refundMicro: event.args.refund,
      });
      return;
    }
    case "RentalReleased": {
      const id = await rentalIdByEscrowId(event.args.id);
      if (!id) return;
      summary.completed += await completeRentals([id]);
      await recordSettlement([id], await settlementOf(event));
      return;
    }
  }
}

// How the dispute ended is recorded once. The whole price back ends the rental as cancelled; a
// part back is a release of the rest (its RentalReleased follows in the same transaction); nothing
// back is a rejection: the rental runs on (or is released now: RentalReleased follows then too).
// Returns whether the whole price went back (the rental is paid out by this event).
async function applyResolution(id: string, refund: bigint, summary: SyncSummary): Promise<boolean> {
  const rental = await db.rental.findUnique({ where: { id }, select: { priceMicro: true } });
  if (!rental) return false;
  await db.rental.updateMany({ where: { id, disputeRefundMicro: null }, data: { disputeRefundMicro: refund } });
  if (refund === rental.priceMicro) {
    summary.cancelled += await cancel(id);
    return true;
  }
  if (refund === 0n) await db.rental.updateMany({ where: { id, status: "disputed" }, data: { status: "active" } });
  return false;
}

async function settlementOf(event: { blockNumber: bigint; transactionHash: string }) {
  return { at: await blockTime(event.blockNumber), txHash: event.transactionHash };
}

async function cancel(id: string): Promise<number> {
  const { count } = await db.rental.updateMany({
    where: { id, status: { in: ["active", "disputed"] } },
    data: { status: "cancelled" },
  });
  return count;
}
