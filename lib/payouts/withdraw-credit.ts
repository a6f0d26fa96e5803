import "client-only";
// Withdrawing a credit from the browser: the wallet that holds it asks the escrow to pay it out.
// Simulated first, so "nothing to withdraw" is said before anything is signed; then sent and
// followed to its receipt. Driven by app/dashboard/payouts/_components/withdraw-button.tsx.
import { type Address, BaseError, ContractFunctionRevertedError, type Hex } from "viem";
import type { Config } from "wagmi";
import { readContract, simulateContract, waitForTransactionReceipt, writeContract } from "wagmi/actions";
import type { EscrowChain } from "@/lib/chain/escrow-chain";
import { describeWalletError } from "@/lib/chain/escrow-wallet";
import { withdrawAbi } from "@/lib/payouts/withdraw-abi";

export type WithdrawStep = { kind: "checking" } | { kind: "wallet" } | { kind: "pending"; hash: Hex };
export type WithdrawOutcome = { ok: true; hash: Hex; amount: bigint } | { ok: false; hash: Hex; message: string };

export async function sendWithdraw(
  config: Config,
  chain: EscrowChain,
  account: Address,
  onStep: (step: WithdrawStep) => void = () => {},
): Promise<WithdrawOutcome> {
  onStep({ kind: "checking" });
  const read = { abi: withdrawAbi, address: chain.escrow, chainId: chain.chainId } as const;
  const amount = await readContract(config, { ...read, functionName: "credits", args: [account] });
  const { request } = await simulateContract(config, { ...read, functionName: "withdraw", account });
  onStep({ kind: "wallet" });
  const hash = await writeContract(config, request);
  onStep({ kind: "pending", hash });
  const receipt = await waitForTransactionReceipt(config, { hash, chainId: chain.chainId });
  if (receipt.status !== "success")
    return { ok: false, hash, message: "The transaction failed on chain: the credit is still there. Try again." };
  return { ok: true, hash, amount };
}

/** The escrow's refusal or the wallet's, in words. */
export function describeWithdrawError(error: unknown, chain: EscrowChain): string {
  if (error instanceof BaseError) {
    const revert = error.walk((e) => e instanceof ContractFunctionRevertedError);
    if (revert instanceof ContractFunctionRevertedError) {
      if (revert.data?.errorName === "NothingToWithdraw")
        return "This wallet has no credit to withdraw: it may have been withdrawn already.";
      return "The escrow refused the withdrawal, and the credit is still there. Try again in a moment.";
    }
  }
  return describeWalletError(error, chain);
}
