import "server-only";
import { encodeFunctionData, getAddress, type Hex } from "viem";
import { chainClients } from "@/lib/chain/chain-clients";
import { freeNonces, NONCE_LOCK } from "@/lib/chain/free-nonces";
import { abi as escrowAbi } from "@/lib/chain/generated/RentalEscrow";
import { type MinedReceipt, readReceipt } from "@/lib/chain/read-receipt";
import { messageFailure, messagePaymentAbi, recordMessageReceipt } from "@/lib/chain/record-message-payment";
import type { Clock } from "@/lib/chain/release-ended-rentals";
import { broadcastRelease } from "@/lib/chain/send-release";
import { signOperatorTransaction } from "@/lib/chain/sign-operator-transaction";
import { currentFees } from "@/lib/chain/transaction-fees";
import { db } from "@/lib/db";
import type { ChainTransaction, MessagePayment } from "@/lib/generated/prisma/client";

export type SettleMessageResult =
  | { ok: true; txHash: Hex }
  // Not settled; `pendingTx`: its transaction is signed and recorded, so it may still be (the
  // release sweep and the event reader finish it), unless the authorization expires first.
  | { ok: false; reason: string; pendingTx?: Hex };

export type SettleMessageOptions = {
  /** How long to wait for the transaction to be mined and CHAIN_CONFIRMATIONS deep (30 s). */
  waitMs?: number;
  /** How often its receipt is looked for meanwhile, at most (250 ms; 25 ms at first, doubling). */
  pollMs?: number;
  /** Send times are recorded on it (the release sweep measures a stuck transaction's age on its own). */
  clock?: Clock;
};

// payForMessage's estimate plus a quarter: an owner who withdrew meanwhile makes the credit a fresh
// storage slot again (~17,000 gas more than estimated), and a limit too low would burn the nonce.
const GAS_MARGIN_PERCENT = 125n;

/**
 * Settles a paid answer (a message_payments row "answering" — the owner's webhook answered 2xx —
 * or "settling") through the escrow: payForMessage(payment, signature) from the operator key.
 * The call is first estimated: one the escrow or the token would refuse (expired, underfunded, the
 * authorization used or cancelled, a bad signature) marks the payment "failed" with a readable
 * reason and sends nothing. Otherwise, under the release sweep's nonce discipline — NONCE_LOCK,
 * waited for (the caller is waiting on the answer), the lowest nonce gap below the transactions in
 * flight or else the next nonce — it signs the call and records it, before anything is sent, as a
 * ChainTransaction of kind "message" ("prepared") linked to the payment ("settling"), in one
 * database transaction. Then it broadcasts and waits (at most `waitMs`) for the receipt to be
 * CHAIN_CONFIRMATIONS deep: success → "settled" (tx hash, settled_at), a revert → "failed" with
 * the decoded reason. What is not decided by then stays "settling": the release sweep follows the
 * transaction like its own (re-broadcast, re-signed at the same nonce, settled from its receipt)
 * and the event reader records MessagePaid. Safe to call again, and concurrently, for one payment.
 */
export async function settleMessagePayment(paymentId: string, options: SettleMessageOptions = {}): Promise<SettleMessageResult> {
  const clock = options.clock ?? (() => new Date());
  const deadline = Date.now() + (options.waitMs ?? 30_000);
  const payment = await db.messagePayment.findUnique({ where: { id: paymentId } });
  if (!payment) return { ok: false, reason: "no such payment" };
  if (payment.status !== "answering" && payment.status !== "settling") return outcome(payment);

  let row: ChainTransaction | null = payment.chainTransactionId
    ? await db.chainTransaction.findUnique({ where: { id: payment.chainTransactionId } })
    : null;
  if (!row) {
    const prepared = await prepareMessagePayment(payment);
    if ("reason" in prepared) return prepared;
    row = prepared.row;
    if (!row) return outcome(await db.messagePayment.findUniqueOrThrow({ where: { id: paymentId } }));
  }
  if (row.status === "prepared" && !(await broadcastRelease(row, clock))) {
    return {
      ok: false,
      reason: "the chain's node refused the transaction for now: it stays settling, and the release sweep sends it again",
      pendingTx: row.hash as Hex,
    };
  }
  const mined = await waitForReceipt(row.id, deadline, options.pollMs ?? 250);
  if (mined) await recordMessageReceipt(row, mined.receipt);
  const now = await db.messagePayment.findUniqueOrThrow({ where: { id: paymentId } });
  if (now.status === "settling") {
    return {
      ok: false,
      reason: "not confirmed on chain in time: it stays settling, and the release sweep and the event reader finish it",
      pendingTx: (row.hash ?? now.txHash) as Hex,
    };
  }
  return outcome(now);
}

function outcome(payment: MessagePayment): SettleMessageResult {
  switch (payment.status) {
    case "settled":
      return { ok: true, txHash: payment.txHash as Hex };
    case "failed":
      return { ok: false, reason: payment.error ?? "failed" };
    case "unpaid":
      return { ok: false, reason: "not settled: the owner's agent did not answer" };
    default:
      return { ok: false, reason: `the payment is ${payment.status}` };
  }
}

function paymentArgs(payment: MessagePayment) {
  return [
    {
      payer: getAddress(payment.payer),
      owner: getAddress(payment.payoutAddress),
      price: payment.priceMicro,
      fee: payment.feeMicro,
      validAfter: payment.validAfter,
      validBefore: payment.validBefore,
      nonce: payment.nonce as Hex,
    },
    payment.signature as Hex,
  ] as const;
}

/**
 * Estimates payForMessage (a refusal fails the payment with its reason), then signs and records it
 * under NONCE_LOCK. `row` null: the payment left "answering" meanwhile without a transaction
 * (another call failed it).
 */
async function prepareMessagePayment(payment: MessagePayment): Promise<{ row: ChainTransaction | null } | { ok: false; reason: string }> {
  const { publicClient, operator, config } = chainClients();
  const fees = await currentFees();
  if (!fees) return { ok: false, reason: "the chain's base fee is above CHAIN_MAX_FEE_GWEI: nothing was sent; try again later" };
  const args = paymentArgs(payment);
  let gas: bigint;
  try {
    gas = await publicClient.estimateContractGas({
      address: config.escrow,
      abi: messagePaymentAbi,
      functionName: "payForMessage",
      args,
      account: operator.address,
    });
  } catch (error) {
    const latest = await publicClient.getBlock({ blockTag: "latest" }).catch(() => null);
    const chainNow = latest ? new Date(Number(latest.timestamp) * 1000) : new Date();
    const failure = messageFailure(error, payment.validAfter, chainNow);
    if (!failure) {
      const message = error instanceof Error ? error.message.split("\n")[0] : String(error);
      return { ok: false, reason: `the chain could not be asked: ${message}` };
    }
    // Credited already (by a transaction not recorded here): the event reader records it.
    if (failure.alreadyPaid) return { ok: false, reason: failure.reason };
    await db.messagePayment.updateMany({
      where: { id: payment.id, status: "answering" },
      data: { status: "failed", error: failure.reason },
    });
    return { ok: false, reason: failure.reason };
  }
  const data = encodeFunctionData({ abi: escrowAbi, functionName: "payForMessage", args });
  const row = await db.$transaction(
    async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(${NONCE_LOCK})`;
      const [current] = await tx.$queryRaw<{ status: string; chainTransactionId: string | null }[]>`
        SELECT status, chain_transaction_id::text AS "chainTransactionId" FROM message_payments WHERE id = ${payment.id}::uuid FOR UPDATE`;
      // A concurrent call for the same payment got here first.
      if (current.status !== "answering" || current.chainTransactionId) {
        return current.chainTransactionId ? tx.chainTransaction.findUnique({ where: { id: current.chainTransactionId } }) : null;
      }
      const { gaps, next, head } = await freeNonces(tx);
      const nonce = gaps[0] ?? next;
      const created = await signOperatorTransaction(tx, {
        kind: "message",
        to: config.escrow,
        data,
        nonce,
        gas: (gas * GAS_MARGIN_PERCENT) / 100n,
        fees,
        head,
      });
      await tx.messagePayment.update({ where: { id: payment.id }, data: { status: "settling", chainTransactionId: created.id } });
      return created;
    },
    // Every settlement at once queues on the lock, each holding a connection while it waits.
    { maxWait: 60_000, timeout: 60_000 },
  );
  return { row };
}

// The first of the transaction's versions (the sweep may re-sign it meanwhile) mined and final,
// looked for until the deadline: soon at first (a block may come at once: the caller is waiting),
// then every `pollMs`.
async function waitForReceipt(id: string, deadline: number, pollMs: number): Promise<MinedReceipt | null> {
  for (let attempt = 0; ; attempt++) {
    const row = await db.chainTransaction.findUniqueOrThrow({ where: { id } });
    if (row.status === "confirmed" || row.status === "failed") {
      // Recorded by the sweep or the event reader meanwhile; its receipt says how.
      const mined = row.hash ? await readReceipt(row.hash as Hex).catch(() => null) : null;
      return mined?.final ? mined : null;
    }
    for (const hash of [row.hash, ...row.replacedHashes].filter(Boolean) as Hex[]) {
      const mined = await readReceipt(hash).catch(() => null);
      if (mined?.final) return mined;
    }
    const wait = Math.min(pollMs, 25 * 2 ** attempt);
    if (Date.now() + wait > deadline) return null;
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}
