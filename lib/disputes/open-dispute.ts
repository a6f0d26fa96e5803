import "client-only";
// Opening a dispute from the browser: connecting the paying wallet (lib/chain/escrow-wallet.ts)
// and sending openDispute with a simulation first, so the escrow's refusals are known in words
// before anything is signed. The stepper component (app/dashboard/rentals/_components/
// dispute-stepper.tsx) drives these; tests drive them with wagmi's mock connector against anvil.
import { type Address, BaseError, ContractFunctionRevertedError, type Hex } from "viem";
import type { Config } from "wagmi";
import { getConnection, simulateContract, switchChain, waitForTransactionReceipt, writeContract } from "wagmi/actions";
import type { EscrowChain } from "@/lib/chain/escrow-chain";
import { type ConnectStep, connectEscrowWallet, describeWalletError, WalletProblem } from "@/lib/chain/escrow-wallet";
import { shortHex } from "@/lib/chain/short-hex";
import { disputeAbi, ESCROW_STATUS_WORDS } from "@/lib/disputes/dispute-abi";
import { formatDateTime } from "@/lib/format/date-time";

function windowClosed(endsAt: string): string {
  return `The dispute window closed at ${formatDateTime(new Date(endsAt))}: a dispute can only be opened before the rental ends.`;
}

/** Step 1: the wallet's account, which must be the one that paid when it is known, on the escrow's chain. */
export function connectForDispute(
  config: Config,
  chain: EscrowChain,
  renterAddress: string | null,
  onStep: (step: ConnectStep) => void = () => {},
): Promise<Address> {
  const mustBe = renterAddress
    ? {
        address: renterAddress,
        otherwise: (address: Address) =>
          `Your wallet is on account ${shortHex(address)}, but this rental was paid from ${shortHex(renterAddress)}. Only that account can open the dispute: switch to it in your wallet, then press “Connect wallet” again.`,
      }
    : null;
  return connectEscrowWallet(config, chain, mustBe, onStep);
}

export type DisputeStep = { kind: "checking" } | { kind: "wallet" } | { kind: "pending"; hash: Hex };
export type DisputeOutcome = { ok: true; hash: Hex } | { ok: false; hash: Hex; message: string };

/**
 * Step 2: simulate openDispute(id) (the escrow's refusal is thrown as an error describeDisputeError
 * explains), have the wallet send it, and wait for the receipt.
 */
export async function sendDispute(
  config: Config,
  chain: EscrowChain,
  input: { escrowId: Hex; endsAt: string; account: Address },
  onStep: (step: DisputeStep) => void = () => {},
  now: () => number = Date.now,
): Promise<DisputeOutcome> {
  if (now() >= new Date(input.endsAt).getTime()) throw new WalletProblem(windowClosed(input.endsAt));
  const current = getConnection(config);
  if (current.status !== "connected" || current.address.toLowerCase() !== input.account.toLowerCase()) {
    throw new WalletProblem("Your wallet changed accounts. Connect again with the account that paid for this rental.");
  }
  if (current.chainId !== chain.chainId) await switchChain(config, { chainId: chain.chainId });
  onStep({ kind: "checking" });
  const { request } = await simulateContract(config, {
    abi: disputeAbi,
    address: chain.escrow,
    functionName: "openDispute",
    args: [input.escrowId],
    account: input.account,
    chainId: chain.chainId,
  });
  onStep({ kind: "wallet" });
  const hash = await writeContract(config, request);
  onStep({ kind: "pending", hash });
  const receipt = await waitForTransactionReceipt(config, { hash, chainId: chain.chainId });
  if (receipt.status !== "success") {
    return {
      ok: false,
      hash,
      message: "The transaction failed on chain, so no dispute was opened. You can try again before the rental ends.",
    };
  }
  return { ok: true, hash };
}

/** What went wrong, in words: the escrow's own errors first, then the wallet's (describeWalletError). */
export function describeDisputeError(error: unknown, chain: EscrowChain, endsAt: string): string {
  if (error instanceof BaseError) {
    const revert = error.walk((e) => e instanceof ContractFunctionRevertedError);
    if (revert instanceof ContractFunctionRevertedError) {
      const name = revert.data?.errorName;
      if (name === "RentalEnded") return windowClosed(endsAt);
      if (name === "SenderNotRenter")
        return "Only the wallet that paid for this rental can open a dispute. Switch to that account in your wallet and try again.";
      if (name === "AlreadyDisputed")
        return "This rental was disputed once already and the dispute was decided; a rental can be disputed only once.";
      if (name === "InvalidStatus") {
        const status = Number(revert.data?.args?.[1]);
        return `The escrow refused: this rental is ${ESCROW_STATUS_WORDS[status] ?? `in state ${status}`}.`;
      }
      return `The escrow refused the dispute${name ? ` (${name})` : ""}.`;
    }
  }
  return describeWalletError(error, chain);
}
