import "server-only";
import {
  BaseError,
  ContractFunctionRevertedError,
  decodeErrorResult,
  ExecutionRevertedError,
  getAddress,
  type Hex,
  parseTransaction,
  type TransactionReceipt,
} from "viem";
import type { ChainSource } from "@/lib/chain/apply-chain-change";
import { blockTime } from "@/lib/chain/block-time";
import { chainClients } from "@/lib/chain/chain-clients";
import { abi as escrowAbi } from "@/lib/chain/generated/RentalEscrow";
import { abi as testUsdcAbi } from "@/lib/chain/generated/TestUSDC";
import { rememberBlock } from "@/lib/chain/remember-block";
import { db } from "@/lib/db";
import type { ChainTransaction, Prisma } from "@/lib/generated/prisma/client";

// How a paid answer's settlement ends (lib/chain/settle-message-payment.ts), shared with the
// release sweep (which follows every operator transaction in flight, "message" ones included),
// the event reader (MessagePaid) and the reorg undo.

/**
 * The escrow's ABI with an EIP-3009 token's errors, which payForMessage bubbles up (OpenZeppelin's
 * ERC3009 and ERC20 errors, as TestUSDC has them; Circle's USDC reverts with strings instead).
 */
export const messagePaymentAbi = [...escrowAbi, ...testUsdcAbi.filter((item) => item.type === "error")] as const;

export type MessageFailure = { reason: string; alreadyPaid: boolean };

/**
 * A readable reason for a payForMessage revert (from an estimate, a call, or a mined transaction
 * replayed), or null when `error` is not a revert (the node could not be reached: nothing is
 * known about the payment). `validAfter` and the chain's time (`chainNow`, the block's) tell an
 * authorization not valid yet from an expired one.
 */
export function messageFailure(error: unknown, validAfter: bigint, chainNow: Date): MessageFailure | null {
  const revert = revertOf(error);
  if (!revert) return null;
  const failure = (reason: string, alreadyPaid = false) => ({ reason, alreadyPaid });
  const text = revert.name === "Error" ? String(revert.args[0] ?? "") : "";
  if (revert.name === "ERC3009InvalidAuthorizationTime" || /authorization is (expired|not yet valid)/i.test(text)) {
    const early = BigInt(Math.floor(chainNow.getTime() / 1000)) <= validAfter;
    return failure(
      early ? "not yet valid: the authorization's validAfter is in the future" : "expired: the authorization's validBefore has passed",
    );
  }
  if (revert.name === "ERC20InsufficientBalance" || /exceeds balance/i.test(text)) {
    return failure("underfunded: the payer holds less USDC than price + fee");
  }
  if (revert.name === "AuthorizationUsed" || revert.name === "ERC3009UsedAuthorization" || /used or cancel?led/i.test(text)) {
    return failure("used: the authorization was used or cancelled elsewhere, and no payment for it is waiting in the escrow");
  }
  if (revert.name === "MessageAlreadyPaid") return failure("already paid: the escrow has credited this authorization", true);
  if (revert.name === "ERC3009InvalidSignature" || revert.name === "InvalidSignature" || /invalid signature/i.test(text)) {
    return failure("invalid signature: the authorization was not signed by the payer for these terms");
  }
  if (revert.name === "EnforcedPause") return failure("the escrow is paused: no new payments");
  if (revert.name === "AccessControlUnauthorizedAccount") return failure("the operator key does not hold OPERATOR_ROLE on the escrow");
  if (revert.name === "ZeroAmount" || revert.name === "ZeroAddress") return failure(`invalid terms (${revert.name})`);
  if (/blacklisted/i.test(text)) return failure("refused by the token: an address is blacklisted");
  return failure(`reverted: ${text || revert.name}`);
}

function revertOf(error: unknown): { name: string; args: readonly unknown[] } | null {
  if (!(error instanceof BaseError)) return null;
  const reverted = error.walk((e) => e instanceof ContractFunctionRevertedError);
  if (reverted instanceof ContractFunctionRevertedError) {
    if (reverted.data) return { name: reverted.data.errorName, args: reverted.data.args ?? [] };
    if (reverted.reason) return { name: "Error", args: [reverted.reason] };
    return { name: reverted.signature ?? "unknown", args: [] };
  }
  const raw = error.walk((e) => typeof (e as { data?: unknown }).data === "string") as { data?: Hex } | null;
  if (raw?.data && raw.data !== "0x") {
    try {
      const decoded = decodeErrorResult({ abi: messagePaymentAbi, data: raw.data });
      return { name: decoded.errorName, args: decoded.args ?? [] };
    } catch {
      return { name: raw.data.slice(0, 10), args: [] };
    }
  }
  return error.walk((e) => e instanceof ExecutionRevertedError) ? { name: "unknown", args: [] } : null;
}

// A mined revert's reason: the call replayed on the state of its block (anvil and most nodes keep
// it; a trace is not available everywhere).
async function minedRevertReason(row: ChainTransaction, receipt: TransactionReceipt, validAfter: bigint): Promise<string> {
  const { publicClient, config } = chainClients();
  const { data } = parseTransaction(row.rawTx as Hex);
  const at = await blockTime(receipt.blockNumber);
  try {
    await publicClient.call({ account: getAddress(row.fromAddress), to: config.escrow, data, blockNumber: receipt.blockNumber });
  } catch (error) {
    const failure = messageFailure(error, validAfter, at);
    if (failure) return failure.reason;
  }
  return `reverted on chain (out of gas, or the state changed: ${receipt.transactionHash})`;
}

/**
 * Settles a "message" transaction from its final receipt: success → the transaction confirmed and
 * its payment "settled" (tx hash, settled_at the block's time); a revert → the transaction failed
 * (its nonce was used, as a reverted release's is) and its payment "failed" with the reason. The
 * block is remembered, so a reorg of it puts both back (reopenMessagePayments). Conditional
 * updates: the settling caller and the release sweep may both record it.
 */
export async function recordMessageReceipt(row: ChainTransaction, receipt: TransactionReceipt): Promise<"settled" | "failed"> {
  const mined = { blockNumber: receipt.blockNumber, hash: receipt.transactionHash };
  const payment = await db.messagePayment.findFirst({ where: { chainTransactionId: row.id }, select: { validAfter: true } });
  if (receipt.status === "success") {
    const settledAt = await blockTime(receipt.blockNumber);
    await db.$transaction(async (tx) => {
      await tx.chainTransaction.updateMany({
        where: { id: row.id, status: { in: ["prepared", "sent"] } },
        data: { status: "confirmed", ...mined, confirmedAt: new Date() },
      });
      await tx.messagePayment.updateMany({
        where: { chainTransactionId: row.id, status: { not: "settled" } },
        data: { status: "settled", txHash: receipt.transactionHash, settledAt, error: null },
      });
      await rememberBlock(tx, receipt.blockNumber, receipt.blockHash);
    });
    return "settled";
  }
  const reason = await minedRevertReason(row, receipt, payment?.validAfter ?? 0n);
  await db.$transaction(async (tx) => {
    await tx.chainTransaction.updateMany({
      where: { id: row.id, status: { in: ["prepared", "sent"] } },
      data: { status: "failed", ...mined, error: `reverted on chain: ${reason}` },
    });
    await tx.messagePayment.updateMany({
      where: { chainTransactionId: row.id, status: "settling" },
      data: { status: "failed", error: reason, txHash: receipt.transactionHash },
    });
    await rememberBlock(tx, receipt.blockNumber, receipt.blockHash);
  });
  return "failed";
}

/** The payment of a "message" transaction the sweep gave up on (its nonce went elsewhere, or it was signed by a rotated key). */
export async function failMessagePayments(transactionId: string, error: string): Promise<void> {
  await db.messagePayment.updateMany({
    where: { chainTransactionId: transactionId, status: "settling" },
    data: { status: "failed", error: `not settled: its transaction was given up (${error})` },
  });
}

/**
 * Payments recorded as settled whose transaction is in flight again (a reorg took its block away,
 * or the chain lost it: lib/chain/undo-reorgs.ts, free-nonces.ts) are "settling" again, until the
 * same signed transaction is mined again. Returns how many.
 */
export async function reopenMessagePayments(client: Prisma.TransactionClient): Promise<number> {
  return client.$executeRaw`
    UPDATE message_payments AS p SET status = 'settling', tx_hash = NULL, settled_at = NULL
      FROM chain_transactions AS t
     WHERE p.chain_transaction_id = t.id AND p.status = 'settled' AND t.status IN ('prepared', 'sent')`;
}

/**
 * The event reader's MessagePaid (from a final block): the matching payment (payer, nonce) is
 * marked settled if the settling caller or the sweep did not already, and the transaction that
 * paid it, when it is the payment's own, is recorded as mined in that block — so a reorg that
 * takes the block away puts both back in flight (reopenMessagePayments). Returns whether the
 * payment changed.
 */
export async function recordMessagePaid(args: { payer: string; nonce: string }, source: ChainSource): Promise<boolean> {
  const settledAt = await blockTime(source.blockNumber);
  const txHash = source.txHash.toLowerCase();
  return db.$transaction(async (tx) => {
    const payment = await tx.messagePayment.findUnique({
      where: { payer_nonce: { payer: args.payer.toLowerCase(), nonce: args.nonce.toLowerCase() } },
      include: { chainTransaction: true },
    });
    if (!payment) {
      console.error(
        `[payments] MessagePaid for payer ${args.payer} nonce ${args.nonce} in ${txHash}, but no message payment here has them`,
      );
      return false;
    }
    const row = payment.chainTransaction;
    if (row && [row.hash, ...row.replacedHashes].includes(txHash)) {
      await tx.chainTransaction.updateMany({
        where: { id: row.id, status: { in: ["prepared", "sent"] } },
        data: { status: "confirmed", blockNumber: source.blockNumber, hash: txHash, confirmedAt: new Date() },
      });
    } else if (payment.status !== "settled") {
      console.warn(
        `[payments] message payment ${payment.id} was paid in ${txHash}, not by a transaction of its own: a reorg of that block will not be undone for it`,
      );
    }
    const { count } = await tx.messagePayment.updateMany({
      where: { id: payment.id, status: { not: "settled" } },
      data: { status: "settled", txHash, settledAt, error: null },
    });
    await rememberBlock(tx, source.blockNumber, source.blockHash);
    return count === 1;
  });
}
