import "client-only";
// The wallet side of opening a dispute (browser; no server code): a wagmi config for the escrow's
// chain, connecting the paying wallet, and sending openDispute with a simulation first so the
// escrow's refusals are known in words before anything is signed. The stepper component
// (app/dashboard/rentals/_components/dispute-stepper.tsx) drives these; tests drive them with
// wagmi's mock connector against anvil.
import { type Address, BaseError, ContractFunctionRevertedError, defineChain, type EIP1193Provider, type Hex } from "viem";
import { type Config, type CreateConnectorFn, createConfig, custom, http, injected } from "wagmi";
import { connect, getConnection, simulateContract, switchChain, waitForTransactionReceipt, writeContract } from "wagmi/actions";
import { shortHex } from "@/lib/chain/short-hex";
import { disputeAbi, ESCROW_STATUS_WORDS } from "@/lib/disputes/dispute-abi";
import type { DisputeChain } from "@/lib/disputes/dispute-chain";
import { formatDateTime } from "@/lib/format/date-time";

/** A problem already put in words for the renter. */
export class DisputeProblem extends Error {}

export function noWalletMessage(): string {
  return "No wallet found in this browser. Install a browser wallet (such as MetaMask or Coinbase Wallet) and reload this page.";
}

function windowClosed(endsAt: string): string {
  return `The dispute window closed at ${formatDateTime(new Date(endsAt))}: a dispute can only be opened before the rental ends.`;
}

/**
 * wagmi for the escrow's chain with one connector (the injected browser wallet by default).
 * Receipts are read from `chain.rpcUrl` when there is one, else through the wallet's connection.
 */
export function createDisputeConfig(
  chain: DisputeChain,
  options: { provider?: EIP1193Provider; connector?: CreateConnectorFn } = {},
): Config | null {
  const viemChain = defineChain({
    id: chain.chainId,
    name: chain.chainName,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: chain.rpcUrl ? [chain.rpcUrl] : [] } },
    blockExplorers: chain.explorerUrl ? { default: { name: "Explorer", url: chain.explorerUrl } } : undefined,
  });
  const transport = chain.rpcUrl ? http(chain.rpcUrl) : options.provider ? custom(options.provider) : null;
  if (!transport) return null;
  return createConfig({
    chains: [viemChain],
    connectors: [options.connector ?? injected()],
    multiInjectedProviderDiscovery: false,
    transports: { [chain.chainId]: transport },
    ssr: false,
  }) as unknown as Config;
}

export type ConnectStep = "connecting" | "switching";

/**
 * Step 1: the wallet's account (it must be the one that paid, when known) on the escrow's chain.
 * Reuses an existing connection, so pressing Connect again after switching accounts works.
 */
export async function connectForDispute(
  config: Config,
  chain: DisputeChain,
  renterAddress: string | null,
  onStep: (step: ConnectStep) => void = () => {},
): Promise<Address> {
  onStep("connecting");
  const existing = getConnection(config);
  let address: Address;
  let chainId: number;
  if (existing.status === "connected") {
    address = existing.address;
    chainId = existing.chainId;
  } else {
    const result = await connect(config, { connector: config.connectors[0] });
    address = result.accounts[0];
    chainId = result.chainId;
  }
  if (renterAddress && address.toLowerCase() !== renterAddress.toLowerCase()) {
    throw new DisputeProblem(
      `Your wallet is on account ${shortHex(address)}, but this rental was paid from ${shortHex(renterAddress)}. Only that account can open the dispute: switch to it in your wallet, then press “Connect wallet” again.`,
    );
  }
  if (chainId !== chain.chainId) {
    onStep("switching");
    await switchChain(config, { chainId: chain.chainId });
  }
  return address;
}

export type DisputeStep = { kind: "checking" } | { kind: "wallet" } | { kind: "pending"; hash: Hex };
export type DisputeOutcome = { ok: true; hash: Hex } | { ok: false; hash: Hex; message: string };

/**
 * Step 2: simulate openDispute(id) (the escrow's refusal is thrown as an error describeDisputeError
 * explains), have the wallet send it, and wait for the receipt.
 */
export async function sendDispute(
  config: Config,
  chain: DisputeChain,
  input: { escrowId: Hex; endsAt: string; account: Address },
  onStep: (step: DisputeStep) => void = () => {},
  now: () => number = Date.now,
): Promise<DisputeOutcome> {
  if (now() >= new Date(input.endsAt).getTime()) throw new DisputeProblem(windowClosed(input.endsAt));
  const current = getConnection(config);
  if (current.status !== "connected" || current.address.toLowerCase() !== input.account.toLowerCase()) {
    throw new DisputeProblem("Your wallet changed accounts. Connect again with the account that paid for this rental.");
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
      message: "The transaction was mined but reverted, so no dispute was opened. You can try again before the rental ends.",
    };
  }
  return { ok: true, hash };
}

function findCode(error: unknown): number | undefined {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 6; e = e.cause as typeof e, depth++) {
    if (typeof e.code === "number") return e.code;
  }
  return undefined;
}

/** What went wrong, in words: the escrow's own errors, wallet refusals (EIP-1193 codes), networks. */
export function describeDisputeError(error: unknown, chain: DisputeChain, endsAt: string): string {
  if (error instanceof DisputeProblem) return error.message;
  if (error instanceof BaseError) {
    const revert = error.walk((e) => e instanceof ContractFunctionRevertedError);
    if (revert instanceof ContractFunctionRevertedError) {
      const name = revert.data?.errorName;
      if (name === "RentalEnded") return windowClosed(endsAt);
      if (name === "SenderNotRenter")
        return "Only the wallet that paid for this rental can open a dispute. Switch to that account in your wallet and try again.";
      if (name === "InvalidStatus") {
        const status = Number(revert.data?.args?.[1]);
        return `The escrow refused: this rental is ${ESCROW_STATUS_WORDS[status] ?? `in state ${status}`}.`;
      }
      return `The escrow refused the dispute${name ? ` (${name})` : ""}.`;
    }
  }
  const code = findCode(error);
  if (code === 4001) return "You cancelled the request in your wallet. Press the button to try again.";
  if (code === -32002) return "Your wallet is already showing a request: open it to continue.";
  if (code === 4902)
    return `Your wallet does not know ${chain.chainName} (chain id ${chain.chainId}). Add that network to your wallet, then try again.`;
  if (error instanceof BaseError) {
    if (error.name === "SwitchChainNotSupportedError" || error.name === "SwitchChainError") {
      return `Your wallet did not switch networks. Switch it to ${chain.chainName} (chain id ${chain.chainId}) yourself, then try again.`;
    }
    if (error.name === "ProviderNotFoundError" || error.name === "ConnectorNotFoundError") return noWalletMessage();
    if (error.name === "HttpRequestError" || error.name === "TimeoutError")
      return "Could not reach the chain to follow the transaction. Check your connection and try again.";
    if (/insufficient funds/i.test(error.message))
      return "The wallet does not have enough ETH to pay the network fee for this transaction.";
    return `The transaction could not be sent: ${error.shortMessage}`;
  }
  if (error instanceof Error && error.name === "ProviderNotFoundError") return noWalletMessage();
  return "Something went wrong with the wallet. Try again, or reload the page.";
}
