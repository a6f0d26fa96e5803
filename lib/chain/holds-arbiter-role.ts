import "server-only";
import { type Address, keccak256, toBytes } from "viem";
import { configuredChainClients } from "@/lib/chain/chain-clients";
import { abi as escrowAbi } from "@/lib/chain/generated/RentalEscrow";

const ARBITER_ROLE = keccak256(toBytes("ARBITER_ROLE"));

/**
 * Whether the wallet holds ARBITER_ROLE on the escrow, read from the chain when it signs in (the
 * dispute console is for arbiters only). No chain configured, or the chain not answering: false,
 * so sign-in never depends on it; the arbiter signs in again once the chain answers.
 */
export async function holdsArbiterRole(address: Address): Promise<boolean> {
  const clients = configuredChainClients();
  if (!clients) return false;
  try {
    return await clients.publicClient.readContract({
      address: clients.config.escrow,
      abi: escrowAbi,
      functionName: "hasRole",
      args: [ARBITER_ROLE, address],
    });
  } catch (error) {
    console.error("[auth] could not read ARBITER_ROLE from the escrow", error instanceof Error ? error.name : error);
    return false;
  }
}
