import "client-only";
// Deciding a dispute from the browser: the owner accepts it (acceptDispute: a full refund), or an
// arbiter resolves it (resolveDispute with the refund). Same pattern as opening one: the escrow's
// refusals are found by a simulation before anything is signed, then the transaction is followed
// to its receipt. Driven by app/dashboard/_components/decision-stepper.tsx.
import { type Address, BaseError, ContractFunctionRevertedError, type Hex } from "viem";
import type { Config } from "wagmi";
import { getConnection, simulateContract, switchChain, waitForTransactionReceipt, writeContract } from "wagmi/actions";
import type { EscrowChain } from "@/lib/chain/escrow-chain";
import { describeWalletError, WalletProblem } from "@/lib/chain/escrow-wallet";
import { disputeAbi, ESCROW_STATUS_WORDS } from "@/lib/disputes/dispute-abi";
import { formatUsdc } from "@/lib/format/usdc";

/** accept: the owner refunds in full. resolve: the arbiter returns `refund` micro-USDC of the price. */
export type Decision = { kind: "accept" } | { kind: "resolve"; refund: string };

export type DecisionStep = { kind: "checking" } | { kind: "wallet" } | { kind: "pending"; hash: Hex };
export type DecisionOutcome = { ok: true; hash: Hex } | { ok: false; hash: Hex; message: string };

export async function sendDecision(
  config: Config,
  chain: EscrowChain,
  input: { escrowId: Hex; decision: Decision; account: Address },
  onStep: (step: DecisionStep) => void = () => {},
): Promise<DecisionOutcome> {
  const current = getConnection(config);
  if (current.status !== "connected" || current.address.toLowerCase() !== input.account.toLowerCase()) {
    throw new WalletProblem("Your wallet changed accounts. Connect again with the account this decision needs.");
  }
  if (current.chainId !== chain.chainId) await switchChain(config, { chainId: chain.chainId });
  onStep({ kind: "checking" });
  const base = { abi: disputeAbi, address: chain.escrow, account: input.account, chainId: chain.chainId } as const;
  let hash: Hex;
  if (input.decision.kind === "accept") {
    const { request } = await simulateContract(config, { ...base, functionName: "acceptDispute", args: [input.escrowId] });
    onStep({ kind: "wallet" });
    hash = await writeContract(config, request);
  } else {
    const args = [input.escrowId, BigInt(input.decision.refund)] as const;
    const { request } = await simulateContract(config, { ...base, functionName: "resolveDispute", args });
    onStep({ kind: "wallet" });
    hash = await writeContract(config, request);
  }
  onStep({ kind: "pending", hash });
  const receipt = await waitForTransactionReceipt(config, { hash, chainId: chain.chainId });
  if (receipt.status !== "success") {
    return { ok: false, hash, message: "The transaction failed on chain, so nothing was decided. Try again." };
  }
  return { ok: true, hash };
}

/** The escrow's refusal in words, then the wallet's (describeWalletError). */
export function describeDecisionError(error: unknown, chain: EscrowChain): string {
  if (error instanceof BaseError) {
    const revert = error.walk((e) => e instanceof ContractFunctionRevertedError);
    if (revert instanceof ContractFunctionRevertedError) {
      const name = revert.data?.errorName;
      const args = revert.data?.args ?? [];
      if (name === "SenderNotOwner") return "Only the wallet this listing is paid to can accept the dispute. Switch to it in your wallet.";
      if (name === "AccessControlUnauthorizedAccount") return "This wallet is not an arbiter of the escrow, so it cannot decide disputes.";
      if (name === "RefundAbovePrice")
        return `The refund is more than the price: at most ${formatUsdc(BigInt(String(args[2])))} can go back.`;
      if (name === "InvalidStatus") {
        const status = Number(args[1]);
        return `The escrow refused: this rental is ${ESCROW_STATUS_WORDS[status] ?? `in state ${status}`}, so the dispute was decided already.`;
      }
      return `The escrow refused the decision${name ? ` (${name})` : ""}.`;
    }
  }
  return describeWalletError(error, chain);
}
