import "server-only";
import { env } from "@/lib/env";

/** What the browser needs to open a dispute: the chain, where to read receipts, the escrow. */
export type DisputeChain = {
  chainId: number;
  chainName: string;
  /** An RPC URL safe to hand to the browser, or null: then the wallet's own connection is used. */
  rpcUrl: string | null;
  escrow: `0x${string}`;
  explorerUrl: string | null;
};

const KNOWN: Record<number, { name: string; rpcUrl: string; explorerUrl: string | null }> = {
  8453: { name: "Base", rpcUrl: "https://mainnet.base.org", explorerUrl: "https://basescan.org" },
  84532: { name: "Base Sepolia", rpcUrl: "https://sepolia.base.org", explorerUrl: "https://sepolia.basescan.org" },
  31337: { name: "Local chain (anvil)", rpcUrl: "http://127.0.0.1:8545", explorerUrl: null },
};

function isLoopback(url: string): boolean {
  try {
    const host = new URL(url).hostname;
    return host === "localhost" || host === "127.0.0.1" || host === "[::1]";
  } catch {
    return false;
  }
}

/**
 * The chain settings (CHAIN_ID, CHAIN_RPC_URL, ESCROW_ADDRESS) as props for the dispute widget, or
 * null when payments are not configured. CHAIN_RPC_URL often carries a provider's API key, so it
 * is passed on only when it points at this machine (development); otherwise the browser uses the
 * chain's public RPC (Base, Base Sepolia) or the wallet's own connection.
 */
export function disputeChain(): DisputeChain | null {
  if (!env.CHAIN_ID || !env.CHAIN_RPC_URL || !env.ESCROW_ADDRESS) return null;
  const known = KNOWN[env.CHAIN_ID];
  const rpcUrl = isLoopback(env.CHAIN_RPC_URL) ? env.CHAIN_RPC_URL : env.CHAIN_ID === 31337 ? null : (known?.rpcUrl ?? null);
  return {
    chainId: env.CHAIN_ID,
    chainName: known?.name ?? `Chain ${env.CHAIN_ID}`,
    rpcUrl,
    escrow: env.ESCROW_ADDRESS as `0x${string}`,
    explorerUrl: known?.explorerUrl ?? null,
  };
}
