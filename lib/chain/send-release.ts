import "server-only";
import { encodeFunctionData, type Hex } from "viem";
import { applyCallsRule } from "@/lib/availability/apply-calls-rule";
import { availabilityTerms } from "@/lib/availability/availability-terms";
import { mergeMinutes } from "@/lib/availability/record-minutes";
import { chainClients } from "@/lib/chain/chain-clients";
import { freeNonces, NONCE_LOCK } from "@/lib/chain/free-nonces";
import { abi as escrowAbi } from "@/lib/chain/generated/RentalEscrow";
import { type MinedReceipt, readReceipt } from "@/lib/chain/read-receipt";
import type { Clock } from "@/lib/chain/release-ended-rentals";
import { signOperatorTransaction } from "@/lib/chain/sign-operator-transaction";
import type { Fees } from "@/lib/chain/transaction-fees";
import { db } from "@/lib/db";
import type { ChainTransaction } from "@/lib/generated/prisma/client";

type DueRow = {
  id: string;
  escrowId: Hex;
  startsAt: Date;
  endsAt: Date;
  priceMicro: bigint;
  guaranteePermille: number;
  minutesMeasured: number[];
  minutesDown: number[];
  callsCheckedUntil: number;
};

/**
 * Claims the rentals still unclaimed and records one signed `settleMany` for them — each with the
 * refund its measured availability is due and the hash of its down-minute list, from the locked
 * rows once the calls rule has been brought up to their end — with
 * its nonce (the lowest gap below the transactions in flight, else the next one) and `fees`,
 * before anything is sent; "busy" while another sweep is preparing one.
 */
export async function prepareRelease(ids: string[], fees: Fees, now: Date) {
  const { publicClient, operator, config } = chainClients();
  return db.$transaction(
    async (tx) => {
      const [{ locked }] = await tx.$queryRaw<{ locked: boolean }[]>`SELECT pg_try_advisory_xact_lock(${NONCE_LOCK}) AS locked`;
      if (!locked) return "busy" as const;
      // Still unclaimed: a concurrent sweep may have taken some since they were checked.
      const due = await tx.$queryRaw<DueRow[]>`
        SELECT id::text AS id, escrow_id AS "escrowId", starts_at AS "startsAt", ends_at AS "endsAt",
               price_micro_usdc AS "priceMicro", guarantee_permille AS "guaranteePermille",
               minutes_measured AS "minutesMeasured", minutes_down AS "minutesDown",
               calls_checked_until AS "callsCheckedUntil"
          FROM rentals
        WHERE id = ANY(${ids}::uuid[]) AND status = 'active' AND release_tx_id IS NULL
        ORDER BY ends_at FOR UPDATE SKIP LOCKED`;
      if (due.length === 0) return null;

      const { gaps, next, head } = await freeNonces(tx);
      const nonce = gaps[0] ?? next;
      // Their minutes made final under the claim's locks: the calls rule brought up to their end.
      const final = await mergeMinutes(tx, due, await applyCallsRule(due, now, { client: tx, settling: true }));
      const settlements = final.map((r) => {
        const terms = availabilityTerms(r, now);
        return { id: r.escrowId, refund: terms.refundMicro, slaHash: terms.slaHash };
      });
      const call = {
        to: config.escrow,
        data: encodeFunctionData({ abi: escrowAbi, functionName: "settleMany", args: [settlements] }),
      };
      // Estimated without the fees: a node caps an estimate at what the sender's balance pays for at
      // the fee given, and an operator without gas (an outage) would get 0 and sign nothing.
      const gas = await publicClient.estimateGas({ account: operator.address, ...call });
      const created = await signOperatorTransaction(tx, {
        kind: "release",
        ...call,
        nonce,
        gas,
        fees,
        head,
        rentalIds: due.map((r) => r.id),
      });
      return { tx: created, rentalCount: due.length };
    },
    { timeout: 30_000 },
  );
}

/**
 * Sends the signed bytes; "already known" (or its nonce used: mined meanwhile) means an earlier
 * attempt got through. False when the node refuses them (the caller may re-sign).
 */
export async function broadcastRelease(row: ChainTransaction, clock: Clock): Promise<boolean> {
  const { publicClient } = chainClients();
  try {
    await publicClient.sendRawTransaction({ serializedTransaction: row.rawTx as Hex });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (!/already known|nonce too low|already imported/i.test(message)) {
      console.error(`[release] broadcasting ${row.hash} (nonce ${row.nonce}) failed; will retry: ${message.split("\n")[0]}`);
      return false;
    }
  }
  await db.chainTransaction.updateMany({
    where: { id: row.id, status: "prepared" },
    data: { status: "sent", sentAt: row.sentAt ?? clock() },
  });
  return true;
}

/**
 * Waits (at most `timeoutMs`) for the transaction to be mined and CHAIN_CONFIRMATIONS deep; null
 * when it is not by then (the next run settles it). The receipt is read again once deep enough,
 * so one seen before a reorg is never settled from.
 */
export async function waitForRelease(row: ChainTransaction, timeoutMs: number): Promise<MinedReceipt | null> {
  if (timeoutMs <= 0) return null;
  const { publicClient, config } = chainClients();
  try {
    const { transactionHash } = await publicClient.waitForTransactionReceipt({
      hash: row.hash as Hex,
      timeout: timeoutMs,
      confirmations: config.confirmations,
    });
    // viem follows a replacement of the same nonce: only our own versions count.
    if (![row.hash, ...row.replacedHashes].includes(transactionHash)) return null;
    const mined = await readReceipt(transactionHash);
    return mined?.final ? mined : null;
  } catch {
    return null; // the next run settles it
  }
}
