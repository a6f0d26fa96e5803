import "server-only";
import { db } from "@/lib/db";

/** The newest this many days with paid answers are shown; the page says so when there are more. */
export const MESSAGE_EARNINGS_DAYS = 60;
/** The settlement transactions listed per day; the rest are counted. */
export const MESSAGE_EARNINGS_TX_PER_DAY = 20;

export type MessageEarningsDay = {
  /** The UTC day the answers were settled, at 00:00 UTC. */
  day: Date;
  answers: number;
  /** The answers' prices: what the escrow credited to the owner's payout address (the fee is the service's). */
  earnedMicro: bigint;
  /** The day's settlement transactions (one may settle several answers), at most MESSAGE_EARNINGS_TX_PER_DAY. */
  txHashes: string[];
  /** How many settlement transactions the day had in all. */
  txCount: number;
};

type Row = { day: Date; answers: number; earned: bigint; tx_hashes: string[] | null; tx_count: number };

/**
 * The owner's answers sold per message and settled on chain, grouped by UTC day, newest first:
 * how many, what they earned and the transactions that settled them. Each settled answer's price
 * was credited in the escrow to the payout address it was sold to, which the payouts page reads and
 * withdraws with the rest of the credit. Answers not (yet) settled earn nothing and are left out.
 * Reads the owner's listings' payments through message_payments(agent_id, created_at).
 */
export async function listMessageEarnings(ownerId: string): Promise<{ days: MessageEarningsDay[]; more: boolean }> {
  const rows = await db.$queryRaw<Row[]>`
    SELECT date_trunc('day', p.settled_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS day,
           count(*)::int AS answers,
           sum(p.price_micro_usdc)::bigint AS earned,
           (array_agg(DISTINCT p.tx_hash) FILTER (WHERE p.tx_hash IS NOT NULL))[1:${MESSAGE_EARNINGS_TX_PER_DAY}] AS tx_hashes,
           count(DISTINCT p.tx_hash)::int AS tx_count
      FROM message_payments p JOIN agents a ON a.id = p.agent_id
     WHERE a.owner_id = ${ownerId}::uuid AND p.status = 'settled' AND p.settled_at IS NOT NULL
     GROUP BY 1
     ORDER BY 1 DESC
     LIMIT ${MESSAGE_EARNINGS_DAYS + 1}`;
  const days = rows.slice(0, MESSAGE_EARNINGS_DAYS).map((row) => ({
    day: row.day,
    answers: row.answers,
    earnedMicro: row.earned,
    txHashes: row.tx_hashes ?? [],
    txCount: row.tx_count,
  }));
  return { days, more: rows.length > MESSAGE_EARNINGS_DAYS };
}
