import "server-only";
import { type Hex, keccak256, parseTransaction } from "viem";
import { chainClients } from "@/lib/chain/chain-clients";
import type { Clock } from "@/lib/chain/release-ended-rentals";
import { broadcastRelease } from "@/lib/chain/send-release";
import { capFees, type Fees } from "@/lib/chain/transaction-fees";
import { db } from "@/lib/db";
import type { ChainTransaction } from "@/lib/generated/prisma/client";

/**
 * Signs a transaction in flight again with the same nonce, recipient, calldata and gas limit at
 * fees from the current base fee (`fees`, at most CHAIN_MAX_FEE_GWEI), records the new version
 * (the earlier hashes kept, so whichever is mined is recognised) and broadcasts it.
 * - "refused": the node would not take it (e.g. its fee cap is below the base fee after a spike,
 *   or it was signed while the operator had no funds): re-signed at the current fees, if they
 *   offer more than it did.
 * - "stuck": sent but not mined past the deadline: fees raised by at least 25 % (nodes take a
 *   replacement 10 % above the version they hold), or to the current fees if higher.
 * The gas limit is kept, not estimated again: a node estimates against its pending state, where the
 * stuck original has already released the batch, and would return the cost of skipping it all.
 * Conditional on the row's version (`attempts`), so two sweeps cannot both re-sign it. Returns
 * whether a new version was signed: not when the cap leaves nothing better to offer.
 */
export async function resignTransaction(row: ChainTransaction, fees: Fees, reason: "refused" | "stuck", clock: Clock): Promise<boolean> {
  const { operatorClient } = chainClients();
  const previous = parseTransaction(row.rawTx as Hex);
  const [oldMax, oldTip] = [previous.maxFeePerGas ?? 0n, previous.maxPriorityFeePerGas ?? 0n];
  const raised = (old: bigint, now: bigint) => {
    const bumped = (old * 125n) / 100n + 1n;
    return now > bumped ? now : bumped;
  };
  const { maxFeePerGas, maxPriorityFeePerGas } =
    reason === "stuck" ? capFees(raised(oldMax, fees.maxFeePerGas), raised(oldTip, fees.maxPriorityFeePerGas)) : fees;
  const enough = reason === "stuck" ? maxFeePerGas * 100n >= oldMax * 110n : maxFeePerGas > oldMax;
  if (!enough) {
    console.warn(
      `[release] ${row.hash} (nonce ${row.nonce}) ${reason === "stuck" ? "is stuck" : "is refused"}, and CHAIN_MAX_FEE_GWEI leaves no higher fee to offer; waiting for the base fee to fall`,
    );
    return false;
  }
  const request = await operatorClient.prepareTransactionRequest({
    to: previous.to!,
    data: previous.data,
    value: previous.value,
    nonce: row.nonce,
    gas: previous.gas,
    maxFeePerGas,
    maxPriorityFeePerGas,
  });
  const rawTx = await operatorClient.signTransaction(request);
  const { count } = await db.chainTransaction.updateMany({
    where: { id: row.id, status: row.status, attempts: row.attempts },
    data: {
      hash: keccak256(rawTx),
      rawTx,
      replacedHashes: { push: row.hash! },
      ...(row.status === "sent" ? { sentAt: clock() } : {}),
      attempts: { increment: 1 },
    },
  });
  if (count === 0) return false; // another sweep got there first
  await broadcastRelease(await db.chainTransaction.findUniqueOrThrow({ where: { id: row.id } }), clock);
  return true;
}
