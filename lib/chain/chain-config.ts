import "server-only";
import { type Address, getAddress, type Hex, parseGwei } from "viem";
import { env } from "@/lib/env";
import { ApiError } from "@/lib/http/api-error";

export type ChainConfig = {
  chainId: number;
  rpcUrl: string;
  usdc: Address;
  escrow: Address;
  quoteSignerKey: Hex;
  operatorKey: Hex;
  confirmations: number;
  /** CHAIN_MAX_FEE_GWEI in wei: the most the operator key offers per gas. */
  maxFeePerGas: bigint;
};

// Payments need every chain setting; without them checkout and settlement say so (503) rather
// than fail half-way.
export function chainConfig(): ChainConfig {
  const { CHAIN_ID, CHAIN_RPC_URL, USDC_ADDRESS, ESCROW_ADDRESS, QUOTE_SIGNER_PRIVATE_KEY, OPERATOR_PRIVATE_KEY } = env;
  if (!CHAIN_ID || !CHAIN_RPC_URL || !USDC_ADDRESS || !ESCROW_ADDRESS || !QUOTE_SIGNER_PRIVATE_KEY || !OPERATOR_PRIVATE_KEY) {
    throw new ApiError(503, "Payments are not configured on this server (CHAIN_* settings, see .env.example).");
  }
  return {
    chainId: CHAIN_ID,
    rpcUrl: CHAIN_RPC_URL,
    usdc: getAddress(USDC_ADDRESS),
    escrow: getAddress(ESCROW_ADDRESS),
    quoteSignerKey: QUOTE_SIGNER_PRIVATE_KEY as Hex,
    operatorKey: OPERATOR_PRIVATE_KEY as Hex,
    confirmations: env.CHAIN_CONFIRMATIONS,
    maxFeePerGas: parseGwei(String(env.CHAIN_MAX_FEE_GWEI)),
  };
}
