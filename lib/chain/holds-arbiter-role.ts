import "server-only";
import { type Address, createPublicClient, http, keccak256, toBytes } from "viem";
import { configuredChainClients } from "@/lib/chain/chain-clients";
import { abi as escrowAbi } from "@/lib/chain/generated/RentalEscrow";

const ARBITER_ROLE = keccak256(toBytes("ARBITER_ROLE"));

// The dashboard's menu asks on every page a wallet signs in to: an RPC that hangs must not hold
// the page for the shared clients' 15 s × 3 tries. One eth_call answers in tens of milliseconds;
// an RPC that takes seconds is down for this purpose, and the caller fails closed.
const READ_TIMEOUT_MS = 3_000;

/**
 * Whether the wallet holds ARBITER_ROLE on the escrow at this moment: one eth_call (hasRole), never
 * remembered, so a role granted or revoked on chain counts from the next read. False when no chain
 * is configured (there is no escrow to arbitrate); throws when the chain does not answer.
 */
export async function holdsArbiterRole(address: Address): Promise<boolean> {
  const clients = configuredChainClients();
  if (!clients) return false;
  const reader = createPublicClient({
    chain: clients.chain,
    transport: http(clients.config.rpcUrl, { timeout: READ_TIMEOUT_MS, retryCount: 0 }),
  });
  return reader.readContract({
    address: clients.config.escrow,
    abi: escrowAbi,
    functionName: "hasRole",
    args: [ARBITER_ROLE, address],
  });
}
