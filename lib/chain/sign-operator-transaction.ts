import "server-only";
import { type Hex, keccak256 } from "viem";
import { chainClients } from "@/lib/chain/chain-clients";
import type { Fees } from "@/lib/chain/transaction-fees";
import type { Prisma } from "@/lib/generated/prisma/client";

type OperatorCall = {
  kind: "release" | "message" | "filler";
  to: Hex;
  data?: Hex;
  value?: bigint;
  nonce: number;
  gas: bigint;
  fees: Fees;
  /** The chain's head now: how many blocks the transaction has waited is counted from it. */
  head: bigint;
  rentalIds?: string[];
};

/**
 * Signs one operator transaction at `nonce` and records it — "prepared", holding its nonce,
 * with the signed bytes to send and send again — in the caller's database transaction, which
 * holds NONCE_LOCK: every transaction the operator key sends is on record before it is sent.
 */
export async function signOperatorTransaction(tx: Prisma.TransactionClient, call: OperatorCall) {
  const { operatorClient, operator } = chainClients();
  const request = await operatorClient.prepareTransactionRequest({
    to: call.to,
    data: call.data,
    value: call.value,
    nonce: call.nonce,
    gas: call.gas,
    ...call.fees,
  });
  const rawTx = await operatorClient.signTransaction(request);
  return tx.chainTransaction.create({
    data: {
      kind: call.kind,
      fromAddress: operator.address.toLowerCase(),
      nonce: call.nonce,
      heldNonce: call.nonce,
      hash: keccak256(rawTx),
      rawTx,
      status: "prepared",
      preparedAtBlock: call.head,
      ...(call.rentalIds ? { rentals: { connect: call.rentalIds.map((id) => ({ id })) } } : {}),
    },
  });
}
