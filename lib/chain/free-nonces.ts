import "server-only";
import { chainClients } from "@/lib/chain/chain-clients";
import { reopenMessagePayments } from "@/lib/chain/record-message-payment";
import { db } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";

// Serialises nonce allocation between sweeps (pg advisory lock id): whoever prepares a transaction
// takes it for the database transaction that records it.
export const NONCE_LOCK = 7_270_001;

export type FreeNonces = {
  /** Nonces below the highest one held that no transaction holds: each must be filled, lowest first. */
  gaps: number[];
  /** The nonce after everything held. */
  next: number;
  /** The chain's head now (recorded with what is signed: how many blocks it has waited). */
  head: bigint;
};

/**
 * Makes the nonces the database holds agree with the chain, which has the last word: a
 * transaction recorded as confirmed whose nonce the chain has not used was reorged away (before
 * the event reader noticed, or before blocks were kept) and goes back in flight, to be sent again
 * as signed; a failed one whose nonce nothing holds on chain or in the node's pool gives it back,
 * so the next transaction takes it instead of queueing behind it for ever. Conditional updates,
 * safe beside a concurrent sweep. Returns how many transactions changed.
 */
export async function reclaimNonces(): Promise<number> {
  const { publicClient, operator } = chainClients();
  const from = operator.address.toLowerCase();
  const [mined, pending] = await Promise.all([
    publicClient.getTransactionCount({ address: operator.address, blockTag: "latest" }),
    publicClient.getTransactionCount({ address: operator.address, blockTag: "pending" }),
  ]);
  const reopened = await db.chainTransaction.updateMany({
    where: { fromAddress: from, status: "confirmed", heldNonce: { gte: mined } },
    data: { status: "prepared", confirmedAt: null, blockNumber: null, sentAt: null },
  });
  const given = await db.chainTransaction.updateMany({
    where: { fromAddress: from, status: "failed", heldNonce: { gte: pending } },
    data: { heldNonce: null },
  });
  if (reopened.count > 0) {
    await reopenMessagePayments(db); // their paid answers are settling again
    console.warn(`[release] ${reopened.count} confirmed transaction(s) not on the chain any more: sent again at their nonces`);
  }
  if (given.count > 0) console.warn(`[release] ${given.count} failed transaction(s) gave back a nonce the chain never used`);
  return reopened.count + given.count;
}

/**
 * The operator's nonces the next transactions may take, read under NONCE_LOCK: whatever is left
 * between the node's pending count and the highest nonce held is a gap (the transactions above it
 * can never be mined until it is filled), and the next nonce follows everything held.
 */
export async function freeNonces(tx: Prisma.TransactionClient): Promise<FreeNonces> {
  const { publicClient, operator } = chainClients();
  const from = operator.address.toLowerCase();
  const [head, pending] = await Promise.all([
    publicClient.getBlockNumber({ cacheTime: 0 }),
    publicClient.getTransactionCount({ address: operator.address, blockTag: "pending" }),
  ]);
  const [highest, ahead] = await Promise.all([
    tx.chainTransaction.aggregate({ where: { fromAddress: from }, _max: { heldNonce: true } }),
    tx.chainTransaction.findMany({ where: { fromAddress: from, heldNonce: { gte: pending } }, select: { heldNonce: true } }),
  ]);
  const taken = new Set(ahead.map((row) => row.heldNonce!));
  const top = Math.max(pending - 1, highest._max.heldNonce ?? -1);
  const gaps: number[] = [];
  for (let nonce = pending; nonce < top; nonce++) if (!taken.has(nonce)) gaps.push(nonce);
  return { gaps, next: top + 1, head };
}
