import "client-only";
// The browser wallet and the escrow's chain, for every transaction a page sends to the escrow
// (opening a dispute, withdrawing a credit): a wagmi config, connecting and switching networks,
// and wallet refusals in words. No server code; tests drive it with wagmi's mock connector.
import { type Address, BaseError, defineChain, type EIP1193Provider } from "viem";
import { type Config, type CreateConnectorFn, createConfig, custom, http, injected } from "wagmi";
import { connect, getConnection, switchChain } from "wagmi/actions";
import type { EscrowChain } from "@/lib/chain/escrow-chain";

/** A problem already put in words for the person at the wallet. */
export class WalletProblem extends Error {}

export function noWalletMessage(): string {
  return "No wallet found in this browser. Install a browser wallet (such as MetaMask or Coinbase Wallet) and reload this page.";
}

/**
 * wagmi for the escrow's chain with one connector (the injected browser wallet by default).
 * Receipts are read from `chain.rpcUrl` when there is one, else through the wallet's connection.
 */
export function createEscrowWalletConfig(
  chain: EscrowChain,
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
 * The wallet's account on the escrow's chain. `mustBe` refuses any other account, in the words
 * given. Reuses an existing connection, so pressing Connect again after switching accounts works.
 */
export async function connectEscrowWallet(
  config: Config,
  chain: EscrowChain,
  mustBe: { address: string; otherwise: (address: Address) => string } | null,
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
  if (mustBe && address.toLowerCase() !== mustBe.address.toLowerCase()) throw new WalletProblem(mustBe.otherwise(address));
  if (chainId !== chain.chainId) {
    onStep("switching");
    await switchChain(config, { chainId: chain.chainId });
  }
  return address;
}

function findCode(error: unknown): number | undefined {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 6; e = e.cause as typeof e, depth++) {
    if (typeof e.code === "number") return e.code;
  }
  return undefined;
}

/** What went wrong at the wallet or on the way to the chain, in words (EIP-1193 codes, networks). */
export function describeWalletError(error: unknown, chain: EscrowChain): string {
  if (error instanceof WalletProblem) return error.message;
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
