import "server-only";
import { getAddress } from "viem";
import { publicRpcUrl } from "@/lib/chain/public-rpc-url";
import { env } from "@/lib/env";

// What the browser's wallet code needs to pay: the chain, the token and the escrow. Nothing
// secret: the quote signer and operator keys stay on the server, and so does CHAIN_RPC_URL (it
// may carry a provider's API key). null when payments are not configured (the rent page then
// says so instead of showing a checkout that cannot work).
export type PublicChainSettings = {
  chainId: number;
  chainName: string;
  // CHAIN_PUBLIC_RPC_URL, or the chain's public endpoint (lib/chain/public-rpc-url.ts).
  rpcUrl: string;
  usdc: `0x${string}`;
  escrow: `0x${string}`;
  // Blocks the server wants under a payment before confirm accepts it (CHAIN_CONFIRMATIONS).
  confirmations: number;
  // WALLETCONNECT_PROJECT_ID; null = no WalletConnect button. Public by design (the browser sends
  // it with every WalletConnect request). It reaches the browser in these props, so it needs no
  // NEXT_PUBLIC_ prefix: nothing is inlined at build time.
  walletConnectProjectId: string | null;
};

const KNOWN_CHAINS: Record<number, string> = {
  1: "Ethereum",
  10: "OP Mainnet",
  137: "Polygon",
  8453: "Base",
  42161: "Arbitrum One",
  84532: "Base Sepolia",
  11155111: "Sepolia",
  31337: "Local chain (anvil)",
};

export function chainName(chainId: number): string {
  return KNOWN_CHAINS[chainId] ?? `Chain ${chainId}`;
}

export function publicChainSettings(): PublicChainSettings | null {
  const { CHAIN_ID, CHAIN_RPC_URL, USDC_ADDRESS, ESCROW_ADDRESS } = env;
  if (!CHAIN_ID || !CHAIN_RPC_URL || !USDC_ADDRESS || !ESCROW_ADDRESS) return null;
  // A chain not on public-rpc-url.ts's list needs CHAIN_PUBLIC_RPC_URL: without a URL to give the browser the
  // checkout cannot read the chain, so it counts as not configured.
  const rpcUrl = publicRpcUrl({
    chainId: CHAIN_ID,
    serverRpcUrl: CHAIN_RPC_URL,
    publicRpcUrl: env.CHAIN_PUBLIC_RPC_URL,
  });
  if (!rpcUrl) return null;
  return {
    chainId: CHAIN_ID,
    chainName: chainName(CHAIN_ID),
    rpcUrl,
    usdc: getAddress(USDC_ADDRESS),
    escrow: getAddress(ESCROW_ADDRESS),
    confirmations: env.CHAIN_CONFIRMATIONS,
    walletConnectProjectId: env.WALLETCONNECT_PROJECT_ID ?? null,
  };
}
