// No "server-only" marker: proxy.ts (the Content-Security-Policy's connect-src) needs this too, and
// it holds nothing secret itself; it decides what of the server's settings a browser may see.
import {
  arbitrum,
  arbitrumSepolia,
  avalanche,
  avalancheFuji,
  base,
  baseSepolia,
  celo,
  foundry,
  linea,
  lineaSepolia,
  mainnet,
  optimism,
  optimismSepolia,
  polygon,
  polygonAmoy,
  sepolia,
  sonic,
  unichain,
  unichainSepolia,
  worldchain,
  zksync,
} from "viem/chains";

// The chains whose public endpoint is known without CHAIN_PUBLIC_RPC_URL: those Circle issues USDC
// on (and their test networks), and anvil's. Named rather than all of viem's (several hundred):
// the whole list made every start of `npm run dev` and every build compile each definition into
// the proxy, for chains the escrow's USDC is not on.
const KNOWN_CHAINS = [
  base,
  baseSepolia,
  mainnet,
  sepolia,
  arbitrum,
  arbitrumSepolia,
  optimism,
  optimismSepolia,
  polygon,
  polygonAmoy,
  avalanche,
  avalancheFuji,
  celo,
  linea,
  lineaSepolia,
  unichain,
  unichainSepolia,
  worldchain,
  zksync,
  sonic,
  foundry,
];

export type RpcSettings = {
  chainId: number;
  /** CHAIN_RPC_URL: the server's own endpoint, often a provider URL with its API key in it. */
  serverRpcUrl?: string;
  /** CHAIN_PUBLIC_RPC_URL: what the operator chose to hand to browsers. */
  publicRpcUrl?: string;
};

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * The JSON-RPC URL browsers use (checkout, dispute stepper), or null when there is none to give:
 * CHAIN_PUBLIC_RPC_URL when set; else CHAIN_RPC_URL only when it is a bare endpoint on this
 * machine (the local anvil chain of `npm run dev` and the tests, on whatever port it got); else
 * the public endpoint viem gives a chain USDC is issued on (Base: https://mainnet.base.org). Never a remote
 * CHAIN_RPC_URL: a provider's API key in it would be on every rent page.
 */
export function publicRpcUrl({ chainId, serverRpcUrl, publicRpcUrl }: RpcSettings): string | null {
  if (publicRpcUrl) return publicRpcUrl;
  if (serverRpcUrl && isBareLoopbackUrl(serverRpcUrl)) return serverRpcUrl;
  return knownChainRpcUrl(chainId);
}

// A loopback URL with no path, query or user info can carry no key, and no other machine reaches it.
function isBareLoopbackUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return LOOPBACK_HOSTS.has(url.hostname) && !url.username && !url.password && url.pathname === "/" && !url.search && !url.hash;
  } catch {
    return false;
  }
}

function knownChainRpcUrl(chainId: number): string | null {
  return KNOWN_CHAINS.find((chain) => chain.id === chainId)?.rpcUrls.default.http[0] ?? null;
}
