// Where the browser tests' services are (set by e2e/global-setup.ts) and the few things the tests
// do behind the browser's back: move the clocks forward and run a cron as Vercel would.
import pg from "pg";
import { type Address, createPublicClient, createTestClient, erc20Abi, type Hex, http } from "viem";
import { foundry } from "viem/chains";

export const baseUrl = () => process.env.E2E_BASE_URL!;
export const keys = {
  owner: () => process.env.E2E_OWNER_KEY as Hex,
  renter: () => process.env.E2E_RENTER_KEY as Hex,
};

export async function sql<T extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: process.env.E2E_DATABASE_URL });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

/** Moves an agent's active rentals `seconds` into the past (the server's clock, as far as they
 * are concerned, jumps forward) and mines a block `seconds` later on the chain. */
export async function moveClocksForward(agentId: string, seconds: number): Promise<void> {
  await sql(
    `UPDATE rentals SET starts_at = starts_at - make_interval(secs => $2), ends_at = ends_at - make_interval(secs => $2)
     WHERE agent_id = $1 AND status = 'active'`,
    [agentId, seconds],
  );
  const chain = createTestClient({ chain: foundry, mode: "anvil", transport: http(process.env.E2E_RPC_URL) });
  await chain.increaseTime({ seconds });
  await chain.mine({ blocks: 1 });
}

/** Calls a cron route with the cron secret, as Vercel Cron does. */
export async function runCron(name: "release-rentals" | "sync-escrow" | "health-checks"): Promise<unknown> {
  const res = await fetch(`${baseUrl()}/api/cron/${name}`, { headers: { Authorization: `Bearer ${process.env.E2E_CRON_SECRET}` } });
  if (!res.ok) throw new Error(`cron ${name}: HTTP ${res.status} ${await res.text()}`);
  return res.json();
}

/** The test USDC balance of `address`, in micro-USDC. */
export async function usdcBalance(address: Address): Promise<bigint> {
  const chain = createPublicClient({ chain: foundry, transport: http(process.env.E2E_RPC_URL) });
  return chain.readContract({ address: process.env.E2E_USDC as Address, abi: erc20Abi, functionName: "balanceOf", args: [address] });
}
