// No "server-only" marker: proxy.ts (the Content-Security-Policy's connect-src) needs this too, and
// it holds nothing secret itself; it decides what of the server's settings a browser may see.
import * as viemChains from "viem/chains";

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
 * the chain's public endpoint as viem defines it (Base: https://mainnet.base.org). Never a remote
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
  // Several definitions can share an id (base and basePreconf); the namespace lists them by
  // export name, so the plain one comes first.
  const chain = Object.values(viemChains).find((c) => typeof c === "object" && c !== null && "id" in c && c.id === chainId);
  return (chain as { rpcUrls?: { default?: { http?: readonly string[] } } } | undefined)?.rpcUrls?.default?.http?.[0] ?? null;
}
