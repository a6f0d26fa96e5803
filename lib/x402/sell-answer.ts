import "server-only";
import { createHash } from "node:crypto";
import type { PaymentPayload, PaymentRequired, PaymentRequirements, ResourceInfo, SettleResponse } from "@x402/core/types";
import { authorizationTypes } from "@x402/evm";
import { type Address, erc20Abi, getAddress, type Hex, parseAbi, verifyTypedData } from "viem";
import { z } from "zod";
import { chainClients } from "@/lib/chain/chain-clients";
import { settleMessagePayment } from "@/lib/chain/settle-message-payment";
import { db } from "@/lib/db";
import { formatUsdc } from "@/lib/format/usdc";
import { afterResponse } from "@/lib/http/after-response";
import { ApiError } from "@/lib/http/api-error";
import { rateLimitError } from "@/lib/http/rate-limit-error";
import { messageFeeMicro } from "@/lib/money/message-fee";
import { limiters } from "@/lib/ratelimit/policies";
import { type ChatCallRow, recordChatCall } from "@/lib/rentals/record-chat-calls";
import { deliverChatMessage } from "@/lib/webhooks/deliver-chat-message";
import { openChatCredentials } from "@/lib/webhooks/open-chat-credentials";
import { answerRequirements, type PaymentServer, paymentServer } from "@/lib/x402/payment-server";

export type AnswerSale =
  /** 402: no payment, or one that cannot be used (the reason in `error`). */
  | { kind: "payment-required"; paymentRequired: PaymentRequired }
  /** 200: the owner's answer, settled on chain (or its settlement sent and still pending). */
  | { kind: "answered"; body: { response: unknown; agent: { id: string; name: string } }; settlement: SettleResponse }
  /** 402: the owner answered but the payment could not be settled; the answer is not given. */
  | { kind: "settlement-failed"; paymentRequired: PaymentRequired; settlement: SettleResponse };

// The `exact` scheme's EIP-3009 payload: what is read of it before the official verifier sees it.
const authorizationPayload = z.object({
  authorization: z.object({
    from: z.string().regex(/^0x[0-9a-fA-F]{40}$/),
    to: z.string().regex(/^0x[0-9a-fA-F]{40}$/),
    value: z.string().regex(/^\d{1,30}$/),
    validAfter: z.string().regex(/^\d{1,20}$/),
    validBefore: z.string().regex(/^\d{1,20}$/),
    nonce: z.string().regex(/^0x[0-9a-fA-F]{64}$/),
  }),
  signature: z.string().regex(/^0x([0-9a-fA-F]{130})$/, "must be a 65-byte signature"),
});

type SoldAgent = {
  id: string;
  name: string;
  priceMicro: bigint;
  payoutAddress: Address;
  webhookUrlCipher: string | null;
  webhookTokenCipher: string | null;
  webhookSigningSecretCipher: string | null;
};

/**
 * One answer sold per message over x402 (docs/pay-per-message.md): without a payment, the 402's
 * requirements (exact, USDC, price + fee, to the escrow); with one, the official verifier checks
 * it, its (payer, nonce) is claimed so it is used at most once, the owner's webhook is called, and
 * only a 2xx answer is settled through the escrow — a failed or late answer leaves the
 * authorization unused (the caller gets the webhook's error) and the owner unpaid.
 */
export async function sellAnswer(input: {
  agentId: string;
  message: string;
  payment: PaymentPayload | null;
  resource: ResourceInfo;
}): Promise<AnswerSale> {
  const agent = await loadSoldAgent(input.agentId);
  const ps = await paymentServer();
  const feeMicro = messageFeeMicro(agent.priceMicro);
  const amountMicro = agent.priceMicro + feeMicro;
  const accepts = await answerRequirements(ps, amountMicro);
  const resource = {
    ...input.resource,
    description: `One answer from ${JSON.stringify(agent.name)} (agent ${agent.id}): ${formatUsdc(agent.priceMicro)} + ${formatUsdc(feeMicro)} fee, paid only if it answers`,
    mimeType: "application/json",
  };
  const required = (error: string) => paymentRequired(ps, accepts, resource, error);
  if (!input.payment) return required("Payment required");

  const match = ps.server.findMatchingRequirements(accepts, input.payment);
  if (!match) {
    return required(
      `No matching payment requirements: pay exactly ${formatUsdc(amountMicro)} (${amountMicro} micro-USDC) with the exact scheme on ${ps.network} to ${ps.payTo}`,
    );
  }
  const parsed = authorizationPayload.safeParse(input.payment.payload);
  if (!parsed.success) return required("invalid_payload: not an EIP-3009 authorization with a 65-byte signature");
  const { authorization, signature } = parsed.data;
  const payer = authorization.from.toLowerCase();

  const failures = limiters().paymentVerifyFailure;
  const standing = await failures.peek(payer);
  if (!standing.allowed) {
    throw rateLimitError(standing, "This wallet's payments failed verification 10 times within a minute, so it is refused for now");
  }
  // Counted against the wallet only when the wallet signed it: anyone may send payments in a
  // wallet's name, and those must not lock the wallet out.
  const signedByPayer = await isSignedByPayer(ps, authorization, signature);
  const refused = async (error: string) => {
    if (signedByPayer) await failures.limit(payer);
    return required(error);
  };
  const standingOnChain = await readPayerStanding(payer as Address, authorization.nonce as Hex, amountMicro);
  if (standingOnChain.used)
    return refused("invalid_exact_evm_nonce_already_used: this payment authorization was already used or cancelled; sign a new one");
  if (standingOnChain.shortfall !== null) {
    return refused(
      `insufficient_funds: the paying wallet holds ${formatUsdc(standingOnChain.shortfall)}; ${formatUsdc(amountMicro)} is needed`,
    );
  }
  const verified = await ps.server.verifyPayment(input.payment, match);
  if (!verified.isValid) return refused(verifyFailure(verified.invalidReason, verified.invalidMessage));

  const claimed = await claimPayment(agent, { ...authorization, payer, signature, feeMicro });
  if (!claimed) return refused("invalid_transaction_state: this payment authorization was already used; sign a new one");

  const answer = await askOwner(agent, { id: claimed, payer }, input.message);
  if (!answer.ok) {
    await db.messagePayment.update({ where: { id: claimed }, data: { status: "unpaid", error: answer.error.message } });
    throw answer.error;
  }
  const settled = await settleMessagePayment(claimed);
  const body = { response: answer.reply, agent: { id: agent.id, name: agent.name } };
  const amount = amountMicro.toString();
  if (settled.ok) {
    return { kind: "answered", body, settlement: { success: true, transaction: settled.txHash, network: ps.network, payer, amount } };
  }
  if (settled.pendingTx) {
    // Signed and sent (or to be sent again): it may still move the money, so the answer is given
    // and the settlement's transaction named — never a 402 for an answer that may yet be paid.
    const settlement = {
      success: false,
      errorReason: "settlement_pending",
      errorMessage: settled.reason,
      transaction: settled.pendingTx,
      network: ps.network,
      payer,
      amount,
    };
    return { kind: "answered", body, settlement };
  }
  const settlement = { success: false, errorReason: settled.reason, transaction: "", network: ps.network, payer };
  return {
    kind: "settlement-failed",
    paymentRequired: (await required(`Payment settlement failed: ${settled.reason}`)).paymentRequired,
    settlement,
  };
}

// The authorization's EIP-712 signature recovers to its `from` (an externally owned account; a
// smart wallet's is judged by the official verifier, on chain).
function isSignedByPayer(ps: PaymentServer, a: z.infer<typeof authorizationPayload>["authorization"], signature: string) {
  return verifyTypedData({
    address: a.from as Address,
    domain: { ...ps.extra, chainId: Number(ps.network.split(":")[1]), verifyingContract: ps.asset },
    types: authorizationTypes,
    primaryType: "TransferWithAuthorization",
    message: {
      from: a.from as Address,
      to: a.to as Address,
      value: BigInt(a.value),
      validAfter: BigInt(a.validAfter),
      validBefore: BigInt(a.validBefore),
      nonce: a.nonce as Hex,
    },
    signature: signature as Hex,
  }).catch(() => false);
}

/** The agent whose answers are sold per message: 404 when none is under this id, 503 while it is offline. */
export async function loadSoldAgent(agentId: string): Promise<SoldAgent> {
  const notSold = new ApiError(404, "No agent is sold per message under this id; rent one at the marketplace instead.");
  if (!z.uuid().safeParse(agentId).success) throw notSold;
  const agent = await db.agent.findUnique({
    where: { id: agentId },
    select: {
      id: true,
      name: true,
      status: true,
      pricePerMessage: true,
      webhookUrlCipher: true,
      webhookTokenCipher: true,
      webhookSigningSecretCipher: true,
      owner: { select: { walletAddress: true } },
    },
  });
  if (!agent?.pricePerMessage || !agent.owner.walletAddress) throw notSold;
  if (agent.status !== "available") {
    throw new ApiError(503, `${JSON.stringify(agent.name)} is offline right now, so it is not selling answers; nothing was charged.`);
  }
  return { ...agent, priceMicro: agent.pricePerMessage, payoutAddress: getAddress(agent.owner.walletAddress) };
}

function paymentRequired(ps: PaymentServer, accepts: PaymentRequirements[], resource: ResourceInfo, error: string) {
  return ps.server
    .createPaymentRequiredResponse(accepts, resource, error)
    .then((paymentRequired) => ({ kind: "payment-required" as const, paymentRequired }));
}

// Whether the token already used (or cancelled) the authorization, and what the wallet holds
// when it is less than `amountMicro`: the official verifier's simulation would only say that the
// transfer fails, without a multicall contract on the chain to explain why.
async function readPayerStanding(payer: Address, nonce: Hex, amountMicro: bigint) {
  const { publicClient, config } = chainClients();
  const [used, balance] = await Promise.all([
    publicClient.readContract({
      address: config.usdc,
      abi: authorizationStateAbi,
      functionName: "authorizationState",
      args: [payer, nonce],
    }),
    publicClient.readContract({ address: config.usdc, abi: erc20Abi, functionName: "balanceOf", args: [payer] }),
  ]);
  return { used, shortfall: balance < amountMicro ? balance : null };
}

const authorizationStateAbi = parseAbi(["function authorizationState(address authorizer, bytes32 nonce) view returns (bool)"]);

// The verifier's reason code and the first line of its explanation (a failed simulation's is
// viem's whole report, ABI and arguments included).
function verifyFailure(reason: string | undefined, message: string | undefined): string {
  const detail = message?.split("\n")[0]?.slice(0, 200);
  return [reason ?? "invalid_payload", detail].filter(Boolean).join(": ");
}

// Takes the authorization's (payer, nonce) before the owner is called: null when it was taken
// before (a replay, a concurrent retry, a retry after a crash), whatever happened to it then.
async function claimPayment(
  agent: SoldAgent,
  a: { payer: string; nonce: string; validAfter: string; validBefore: string; signature: string; feeMicro: bigint },
): Promise<string | null> {
  const rows = await db.$queryRaw<{ id: string }[]>`
    INSERT INTO message_payments (agent_id, payer, nonce, payout_address, price_micro_usdc, fee_micro_usdc, valid_after, valid_before, signature, status)
    VALUES (${agent.id}::uuid, ${a.payer}, ${a.nonce.toLowerCase()}, ${agent.payoutAddress.toLowerCase()}, ${agent.priceMicro}, ${a.feeMicro},
            ${BigInt(a.validAfter)}, ${BigInt(a.validBefore)}, ${a.signature}, 'answering')
    ON CONFLICT (payer, nonce) DO NOTHING
    RETURNING id::text AS id`;
  return rows[0]?.id ?? null;
}

// The owner's webhook, called as for a rental's message, the call recorded after the response.
async function askOwner(agent: SoldAgent, payment: { id: string; payer: string }, message: string) {
  const creds = openChatCredentials(agent);
  const requestBytes = Buffer.byteLength(message);
  const record = (call: Omit<ChatCallRow, "rentalId" | "messagePaymentId" | "agentId" | "createdAt" | "channel" | "requestBytes">) =>
    afterResponse(`recording a paid answer of agent ${agent.id}`, () =>
      recordChatCall({
        rentalId: null,
        messagePaymentId: payment.id,
        agentId: agent.id,
        createdAt: new Date(),
        channel: "API",
        requestBytes,
        ...call,
      }),
    );
  if ("problem" in creds) {
    await record({ statusCode: 503, webhookStatus: null, latencyMs: 0, responseBytes: 0, error: creds.problem });
    return { ok: false as const, error: new ApiError(503, creds.problem) };
  }
  const delivery = await deliverChatMessage(creds, {
    message,
    agent,
    payment: {
      ref: `mp_${payment.id.replaceAll("-", "")}`,
      payer: getAddress(payment.payer),
      channel: "API",
      sessionKey: payerSessionKey(agent.id, payment.payer),
    },
  });
  const { webhookStatus, latencyMs, responseBytes } = delivery;
  await record({
    statusCode: delivery.ok ? 200 : delivery.error.status,
    webhookStatus,
    latencyMs,
    responseBytes,
    error: delivery.ok ? null : delivery.error.message,
  });
  return delivery;
}

// One conversation per paying wallet and agent: the same key on each of its paid messages, so the
// owner can keep its state as it does per rental.
function payerSessionKey(agentId: string, payer: string): string {
  return `payer_${createHash("sha256").update(`${agentId}:${payer}`).digest("hex").slice(0, 32)}`;
}
