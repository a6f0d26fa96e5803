import "server-only";
import { publicRpcUrl } from "@/lib/chain/public-rpc-url";
import { env } from "@/lib/env";

/** What the browser needs to send a transaction to the escrow (a dispute, a withdrawal): the chain, where to read receipts, the escrow. */
export type EscrowChain = {
  chainId: number;
  chainName: string;
  /** An RPC URL safe to hand to the browser, or null: then the wallet's own connection is used. */
  rpcUrl: string | null;
  escrow: `0x${string}`;
  explorerUrl: string | null;
};

const KNOWN: Record<number, { name: string; explorerUrl: string | null }> = {
  8453: { name: "Base", explorerUrl: "https://basescan.org" },
  84532: { name: "Base Sepolia", explorerUrl: "https://sepolia.basescan.org" },
  31337: { name: "Local chain (anvil)", explorerUrl: null },
};

/**
 * The chain settings (CHAIN_ID, ESCROW_ADDRESS and the public RPC URL) as props for the wallet
 * widgets (disputes, withdrawals), or null when payments are not configured. CHAIN_RPC_URL often carries a provider's API
 * key and is never passed on: the browser gets CHAIN_PUBLIC_RPC_URL or the chain's public
 * endpoint (lib/chain/public-rpc-url.ts), else (null) it reads through the wallet's connection.
 */
export function escrowChain(): EscrowChain | null {
  if (!env.CHAIN_ID || !env.CHAIN_RPC_URL || !env.ESCROW_ADDRESS) return null;
  const known = KNOWN[env.CHAIN_ID];
  const rpcUrl = publicRpcUrl({
    chainId: env.CHAIN_ID,
    serverRpcUrl: env.CHAIN_RPC_URL,
    publicRpcUrl: env.CHAIN_PUBLIC_RPC_URL,
  });
  return {
    chainId: env.CHAIN_ID,
    chainName: known?.name ?? `Chain ${env.CHAIN_ID}`,
    rpcUrl,
    escrow: env.ESCROW_ADDRESS as `0x${string}`,
    explorerUrl: known?.explorerUrl ?? null,
  };
}
