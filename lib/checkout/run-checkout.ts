import "client-only";
// The checkout's steps, run against a wagmi config: balance check, plan (permit or approve),
// quote, permit or approve, pay, confirm. The component only keeps the state; this runs the
// wallet and the API and reports each step through dispatch. Flow: docs/checkout.md.
import { type Address, erc20Abi, type Hex } from "viem";
import type { Config } from "wagmi";
import { getBlock, readContract, signTypedData, waitForTransactionReceipt, writeContract } from "wagmi/actions";
import { abi as escrowAbi } from "@/lib/chain/generated/RentalEscrow";
import type { PublicChainSettings } from "@/lib/chain/public-chain-settings";
import { shortHex } from "@/lib/chain/short-hex";
import type { CheckoutChannel } from "@/lib/checkout/activation";
import {
  CheckoutApiError,
  type ClaimedRental,
  type Duration,
  isClaimed,
  confirmPayment as postConfirm,
  requestQuote as postQuote,
  type QuoteResponse,
  quoteArgs,
  quoteUsable,
  UNCLAIMED_PAYMENT,
} from "@/lib/checkout/checkout-api";
import { confirmWithRetry, defaultSleep } from "@/lib/checkout/confirm-with-retry";
import { type PermitDomain, permitTypes, readPermitDomain, readPermitNonce, splitSignature } from "@/lib/checkout/permit";
import { shortfallMessage } from "@/lib/checkout/price";
import { AGENT_CHECK, type PaymentPlan, type StepAction, type StepId, stepsFor } from "@/lib/checkout/steps";
import { describeWalletError } from "@/lib/checkout/wallet-errors";
import { formatDateTime } from "@/lib/format/date-time";
import { plural } from "@/lib/format/plural";
import { formatUsdc } from "@/lib/format/usdc";

export type CheckoutDeps = {
  config: Config;
  chain: PublicChainSettings;
  requestQuote?: typeof postQuote;
  confirmPayment?: typeof postConfirm;
  sleep?: (ms: number) => Promise<void>;
  receiptTimeoutMs?: number;
};

// What the flow carries between steps and across retries.
export type FlowData = {
  renter?: Address;
  quote?: QuoteResponse;
  permitDomain?: PermitDomain | null;
  permit?: { v: number; r: Hex; s: Hex; deadline: bigint };
  approveHash?: Hex;
  payHash?: Hex;
  payReverted?: boolean;
  lastError?: "timeout" | "other";
};

export type RunInput = {
  agentId: string;
  /** The listing's name, for the words of the check the quote starts with. */
  agentName: string;
  duration: Duration;
  channel: CheckoutChannel;
  renter: Address;
  total: bigint;
  from: StepId;
};

export type RunHooks = {
  dispatch: (action: StepAction) => void;
  // false once the run was cancelled or replaced: stop quietly.
  live: () => boolean;
  // The payment transaction was sent: the caller makes this run live again (a payment sent is
  // followed to the end even after Cancel) and remembers the hash and the quote's claim secret.
  paymentSent?: (hash: Hex, claimSecret: string) => void;
};

export type RunOutcome =
  | { kind: "done"; result: ClaimedRental }
  | { kind: "refused"; notice: string } // nothing was started (balance too low, unreadable)
  | { kind: "failed"; step: StepId }
  | { kind: "stopped" };

// The plan for this wallet: permit when the token supports EIP-2612, otherwise approve.
export async function paymentPlan(deps: CheckoutDeps, data: FlowData, renter: Address): Promise<PaymentPlan> {
  if (data.permitDomain === undefined) {
    data.permitDomain = await readPermitDomain(deps.config, deps.chain.usdc, deps.chain.chainId, renter).catch(() => null);
  }
  return data.permitDomain ? "permit" : "approve";
}

export async function runCheckout(deps: CheckoutDeps, data: FlowData, input: RunInput, hooks: RunHooks): Promise<RunOutcome> {
  const { config, chain } = deps;
  const requestQuote = deps.requestQuote ?? postQuote;
  const sleep = deps.sleep ?? defaultSleep;
  const timeout = deps.receiptTimeoutMs ?? 300_000;
  const { dispatch, live } = hooks;
  const { renter } = input;
  data.renter = renter;

  // Balance first: a payment that cannot succeed must not reach the wallet.
  if (input.from !== "confirm" && !(input.from === "pay" && data.payHash && data.lastError === "timeout")) {
    try {
      const held = await readContract(config, {
        address: chain.usdc,
        abi: erc20Abi,
        functionName: "balanceOf",
        args: [renter],
        chainId: chain.chainId,
      });
      const words = shortfallMessage(held, input.total);
      if (words) return { kind: "refused", notice: words };
    } catch (error) {
      return { kind: "refused", notice: `Your USDC balance could not be read: ${describeWalletError(error).message}` };
    }
  }
  if (!live()) return { kind: "stopped" };

  const plan = await paymentPlan(deps, data, renter);
  dispatch({ type: "plan", plan });
  const order = stepsFor(plan);
  let at = Math.max(order.indexOf(input.from), 0);
  const payAt = order.indexOf("pay");
  // A reverted payment, or an unsent one whose quote is (nearly) expired, needs a fresh quote.
  if (data.payReverted || (at > 0 && at <= payAt && !data.payHash && (!data.quote || !quoteUsable(data.quote.quote)))) at = 0;
  dispatch({ type: "resetFrom", step: order[at] });

  let step: StepId = order[at];
  try {
    // 1. Quote: the server checks that the agent's webhook answers (409 with words when it does
    // not, up to 10 s), then prices the rental and signs it for this wallet.
    if (at === 0) {
      step = "quote";
      data.permit = undefined;
      data.payHash = undefined;
      data.payReverted = false;
      data.lastError = undefined;
      dispatch({ type: "pending", step, detail: AGENT_CHECK.running(input.agentName) });
      data.quote = await requestQuote({
        agentId: input.agentId,
        durationType: input.duration,
        channel: input.channel,
        renter,
      });
      if (!live()) return { kind: "stopped" };
      if (BigInt(data.quote.totalMicro) !== input.total) {
        throw new CheckoutApiError(
          409,
          `The price is now ${formatUsdc(BigInt(data.quote.totalMicro))}. Reload the page to see the new price.`,
        );
      }
      dispatch({
        type: "confirmed",
        step,
        detail: AGENT_CHECK.answered(
          input.agentName,
          data.quote.probe.latency_ms,
          formatDateTime(new Date(Number(data.quote.quote.deadline) * 1000)),
        ),
      });
    }
    const quote = data.quote!;
    const total = BigInt(quote.totalMicro);

    // 2a. Permit: sign (no transaction) that the escrow may take exactly the total.
    if (plan === "permit" && at <= order.indexOf("permit")) {
      step = "permit";
      const nonce = await readPermitNonce(config, chain.usdc, chain.chainId, renter);
      dispatch({ type: "wallet", step, detail: `Approve the payment of ${formatUsdc(total)} in your wallet` });
      const deadline = BigInt(quote.quote.deadline);
      const signature = await signTypedData(config, {
        account: renter,
        domain: data.permitDomain!,
        types: permitTypes,
        primaryType: "Permit",
        message: { owner: renter, spender: chain.escrow, value: total, nonce, deadline },
      });
      if (!live()) return { kind: "stopped" };
      data.permit = { ...splitSignature(signature), deadline };
      dispatch({ type: "confirmed", step, detail: "Signed (no transaction, no gas)" });
    }

    // 2b. Approve: allow the escrow to take the total (skipped when already allowed).
    if (plan === "approve" && at <= order.indexOf("approve")) {
      step = "approve";
      const allowance = await readContract(config, {
        address: chain.usdc,
        abi: erc20Abi,
        functionName: "allowance",
        args: [renter, chain.escrow],
        chainId: chain.chainId,
      });
      if (allowance >= total) {
        dispatch({ type: "confirmed", step, detail: "Already approved" });
      } else {
        if (!(data.approveHash && data.lastError === "timeout")) {
          dispatch({ type: "wallet", step, detail: `Approve ${formatUsdc(total)} in your wallet` });
          data.approveHash = await writeContract(config, {
            account: renter,
            address: chain.usdc,
            abi: erc20Abi,
            functionName: "approve",
            args: [chain.escrow, total],
            chainId: chain.chainId,
          });
          if (!live()) return { kind: "stopped" };
        }
        dispatch({ type: "pending", step, detail: `Transaction ${shortHex(data.approveHash!)}` });
        const receipt = await waitForTransactionReceipt(config, {
          hash: data.approveHash!,
          chainId: chain.chainId,
          timeout,
        });
        if (!live()) return { kind: "stopped" };
        data.approveHash = undefined;
        if (receipt.status !== "success") throw new Error("The approval failed on chain. Nothing was paid; retry.");
        dispatch({ type: "confirmed", step, detail: "USDC approved" });
      }
    }

    // 3. Pay: the escrow checks the quote, takes price + fee and records the rental.
    if (at <= payAt) {
      step = "pay";
      if (!(data.payHash && data.lastError === "timeout")) {
        dispatch({ type: "wallet", step, detail: `Confirm the payment of ${formatUsdc(total)} in your wallet` });
        const args = quoteArgs(quote.quote);
        if (plan === "permit") {
          const permit = data.permit!;
          data.payHash = await writeContract(config, {
            account: renter,
            address: chain.escrow,
            abi: escrowAbi,
            functionName: "createRentalWithPermit",
            args: [args, quote.signature, permit.deadline, permit.v, permit.r, permit.s],
            chainId: chain.chainId,
          });
        } else {
          data.payHash = await writeContract(config, {
            account: renter,
            address: chain.escrow,
            abi: escrowAbi,
            functionName: "createRental",
            args: [args, quote.signature],
            chainId: chain.chainId,
          });
        }
        hooks.paymentSent?.(data.payHash, quote.claimSecret);
      }
      data.lastError = undefined;
      const n = chain.confirmations;
      dispatch({
        type: "pending",
        step,
        detail: `Transaction ${shortHex(data.payHash!)}: waiting for ${plural(n, "confirmation")}`,
      });
      const receipt = await waitForTransactionReceipt(config, {
        hash: data.payHash!,
        chainId: chain.chainId,
        confirmations: n,
        timeout,
      });
      if (!live()) return { kind: "stopped" };
      if (receipt.status !== "success") {
        data.payReverted = true;
        throw new Error("The payment failed on chain: no USDC left your wallet (only the network fee). Retry gets a fresh quote.");
      }
      // When it was paid, by the chain's clock: the block's time, not this browser's. The payment
      // stands whether or not that read answers.
      const block = await getBlock(config, { blockNumber: receipt.blockNumber, chainId: chain.chainId }).catch(() => null);
      if (!live()) return { kind: "stopped" };
      dispatch({ type: "confirmed", step, detail: block ? `Paid at ${formatDateTime(new Date(Number(block.timestamp) * 1000))}` : "Paid" });
    }

    // 4. Confirm: the service reads the receipt and activates the rental.
    step = "confirm";
    dispatch({ type: "pending", step, detail: "Activating your rental" });
    const confirmed = await confirmWithRetry(
      data.payHash!,
      quote.claimSecret,
      (words) => dispatch({ type: "pending", step: "confirm", detail: words }),
      live,
      deps.confirmPayment ?? postConfirm,
      sleep,
    );
    if (!confirmed || !live()) return { kind: "stopped" };
    if (!isClaimed(confirmed)) throw new CheckoutApiError(403, UNCLAIMED_PAYMENT);
    dispatch({ type: "confirmed", step, detail: `Rental ${confirmed.code} is ${confirmed.status}` });
    return { kind: "done", result: { ...confirmed, claimSecret: quote.claimSecret } };
  } catch (error) {
    if (!live()) return { kind: "stopped" };
    const timedOut = error instanceof Error && error.name === "WaitForTransactionReceiptTimeoutError";
    data.lastError = timedOut ? "timeout" : "other";
    const described = error instanceof CheckoutApiError ? { message: error.message, rejected: false } : describeWalletError(error);
    let message = described.message;
    if (step === "confirm" && data.payHash) {
      message += ` Your payment is on chain (transaction ${data.payHash}); the rental is activated automatically within a few minutes even if this step fails. Retry to get your code.`;
    }
    dispatch({ type: "failed", step, error: message, rejected: described.rejected });
    return { kind: "failed", step };
  }
}
