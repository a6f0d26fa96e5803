import "server-only";
import { type Chain, createPublicClient, createWalletClient, defineChain, http } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { type ChainConfig, chainConfig } from "@/lib/chain/chain-config";
import { ApiError } from "@/lib/http/api-error";

function chainFor(config: ChainConfig): Chain {
  return defineChain({
    id: config.chainId,
    name: `chain-${config.chainId}`,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [config.rpcUrl] } },
  });
}

const cache = globalThis as unknown as { chainClients?: { key: string; clients: ReturnType<typeof build> } };

function build(config: ChainConfig) {
  const chain = chainFor(config);
  const transport = http(config.rpcUrl, { retryCount: 2, timeout: 15_000 });
  const operator = privateKeyToAccount(config.operatorKey);
  return {
    config,
    chain,
    publicClient: createPublicClient({ chain, transport }),
    operator,
    operatorClient: createWalletClient({ chain, transport, account: operator }),
    quoteSigner: privateKeyToAccount(config.quoteSignerKey),
  };
}

// One set of clients per process and configuration.
export function chainClients() {
  const config = chainConfig();
  // Every setting is part of the key: a changed operator or signer key (rotation) or
  // confirmation count must not keep being served by clients built from the old one.
  const key = JSON.stringify(config, (_, value) => (typeof value === "bigint" ? String(value) : value));
  if (cache.chainClients?.key !== key) cache.chainClients = { key, clients: build(config) };
  return cache.chainClients.clients;
}

/** The clients, or null when payments are not configured on this server (no chain to ask). */
export function configuredChainClients() {
  try {
    return chainClients();
  } catch (error) {
    if (error instanceof ApiError && error.status === 503) return null;
    throw error;
  }
}
