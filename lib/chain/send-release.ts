import "server-only";
import { encodeFunctionData, type Hex, keccak256, type TransactionReceipt } from "viem";
import { chainClients } from "@/lib/chain/chain-clients";
import { abi as escrowAbi } from "@/lib/chain/generated/RentalEscrow";
import type { Clock } from "@/lib/chain/release-ended-rentals";
import { db } from "@/lib/db";
import type { ChainTransaction } from "@/lib/generated/prisma/client";

// Serialises nonce allocation between sweeps (pg advisory lock id).
const NONCE_LOCK = 7_270_001;

/**
 * Claims the rentals still unclaimed and records one signed `releaseMany` for them, with its nonce,
 * before anything is sent; "busy" while another sweep is preparing one.
 */
export async function prepareRelease(ids: string[]) {
  const { publicClient, operatorClient, operator, config } = chainClients();
  return db.$transaction(
    async (tx) => {
      const [{ locked }] = await tx.$queryRaw<{ locked: boolean }[]>`SELECT pg_try_advisory_xact_lock(${NONCE_LOCK}) AS locked`;
      if (!locked) return "busy" as const;
      // Still unclaimed: a concurrent sweep may have taken some since they were checked.
      const due = await tx.$queryRaw<{ id: string; escrowId: Hex }[]>`
        SELECT id::text AS id, escrow_id AS "escrowId" FROM rentals
        WHERE id = ANY(${ids}::uuid[]) AND status = 'active' AND release_tx_id IS NULL
        ORDER BY ends_at FOR UPDATE SKIP LOCKED`;
      if (due.length === 0) return null;

      const from = operator.address.toLowerCase();
      const [{ max }] = await tx.$queryRaw<{ max: number | null }[]>`
        SELECT max(nonce) AS max FROM chain_transactions WHERE from_address = ${from}`;
      const onChain = await publicClient.getTransactionCount({ address: operator.address, blockTag: "pending" });
      const nonce = Math.max(onChain, (max ?? -1) + 1);
      const request = await operatorClient.prepareTransactionRequest({
        to: config.escrow,
        data: encodeFunctionData({ abi: escrowAbi, functionName: "releaseMany", args: [due.map((r) => r.escrowId)] }),
        nonce,
      });
      const rawTx = await operatorClient.signTransaction(request);
      const created = await tx.chainTransaction.create({
        data: {
          kind: "release",
          fromAddress: from,
          nonce,
          hash: keccak256(rawTx),
          rawTx,
          status: "prepared",
          rentals: { connect: due.map((r) => ({ id: r.id })) },
        },
      });
      return { tx: created, rentalCount: due.length };
    },
    { timeout: 30_000 },
  );
}

// Sends the signed bytes; "already known" means an earlier attempt got through.
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

export async function waitForRelease(hash: Hex, timeoutMs: number): Promise<TransactionReceipt | null> {
  if (timeoutMs <= 0) return null;
  const { publicClient, config } = chainClients();
  try {
    return await publicClient.waitForTransactionReceipt({
      hash,
      timeout: timeoutMs,
      confirmations: config.confirmations,
    });
  } catch {
    return null; // the next run settles it
  }
}
