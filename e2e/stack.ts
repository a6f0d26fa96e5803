// Where the browser tests' services are (set by e2e/global-setup.ts) and what the tests do behind
// the browser's back: SQL on the test database, the operator CLI, crons as Vercel calls them, the
// clocks moved forward, test USDC balances and mints.
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { promisify } from "node:util";
import pg from "pg";
import {
  type Address,
  createPublicClient,
  createTestClient,
  createWalletClient,
  encodeAbiParameters,
  erc20Abi,
  type Hex,
  http,
  keccak256,
  toHex,
} from "viem";
import { foundry } from "viem/chains";
import * as RentalEscrow from "../lib/chain/generated/RentalEscrow";
import * as TestUSDC from "../lib/chain/generated/TestUSDC";
import { admin } from "../scripts/deploy-local-chain";
import { type EchoAgent, startEchoAgent } from "../scripts/echo-agent";
import { tsNodeArgs } from "../scripts/node-args";

// Every spec imports this module, so each worker points its E2E_* variables at its own stack here,
// before any test runs: e2e/global-setup.ts started one per worker, and Playwright numbers the
// workers running at once from 0 (TEST_PARALLEL_INDEX; a worker started again after a failure
// takes the number of the one it replaces).
const stacks = JSON.parse(process.env.E2E_STACKS ?? "[]") as Array<Record<string, string>>;
Object.assign(process.env, stacks[Number(process.env.TEST_PARALLEL_INDEX ?? 0)]);

export const baseUrl = () => process.env.E2E_BASE_URL!;
export const keys = {
  owner: () => process.env.E2E_OWNER_KEY as Hex,
  renter: () => process.env.E2E_RENTER_KEY as Hex,
  // Holds no USDC until a test mints some.
  unfundedRenter: () => process.env.E2E_SECOND_RENTER_KEY as Hex,
  arbiter: () => process.env.E2E_ARBITER_KEY as Hex,
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

/**
 * Lets `seconds` pass for an agent's running rentals, then runs `body` (a sweep, say): their times
 * move that far into the past in the database (the server's view) and the chain's clock jumps
 * ahead, so they have ended for both. Afterwards the chain's clock is set back to the wall clock
 * (anvil allows it), so the quotes the server signs later are valid on chain again.
 */
export async function afterRentalsEnd<T>(agentId: string, seconds: number, body: () => Promise<T>): Promise<T> {
  await sql(
    `UPDATE rentals SET starts_at = starts_at - make_interval(secs => $2), ends_at = ends_at - make_interval(secs => $2)
     WHERE agent_id = $1 AND status IN ('active', 'disputed')`,
    [agentId, seconds],
  );
  const chain = createTestClient({ chain: foundry, mode: "anvil", transport: http(process.env.E2E_RPC_URL) });
  await chain.increaseTime({ seconds });
  await chain.mine({ blocks: 1 });
  try {
    return await body();
  } finally {
    await chain.request({ method: "evm_setTime", params: [Math.floor(Date.now() / 1000)] } as never);
    await chain.mine({ blocks: 1 });
  }
}

/** Calls a cron route with the cron secret, as Vercel Cron does. */
export async function runCron(name: "release-rentals" | "sync-escrow" | "health-checks" | "send-messages"): Promise<unknown> {
  const res = await fetch(`${baseUrl()}/api/cron/${name}`, {
    headers: { Authorization: `Bearer ${process.env.E2E_CRON_SECRET}` },
  });
  if (!res.ok) throw new Error(`cron ${name}: HTTP ${res.status} ${await res.text()}`);
  return res.json();
}

/** The test USDC balance of `address`, in micro-USDC. */
export async function usdcBalance(address: Address): Promise<bigint> {
  const chain = createPublicClient({ chain: foundry, transport: http(process.env.E2E_RPC_URL) });
  return chain.readContract({
    address: process.env.E2E_USDC as Address,
    abi: erc20Abi,
    functionName: "balanceOf",
    args: [address],
  });
}

/** Runs the operator CLI (docs/cli.md) with the server's settings; its JSON answer. */
export async function operatorCli(args: string[], env: Record<string, string> = {}): Promise<Record<string, unknown>> {
  const { stdout } = await promisify(execFile)(process.execPath, tsNodeArgs("scripts/cli.ts", args, { reactServer: true }), {
    env: { ...process.env, ...JSON.parse(process.env.E2E_SERVER_SETTINGS!), ...env },
  });
  return JSON.parse(stdout) as Record<string, unknown>;
}

/** Mints test USDC (6 decimals) to `to` from the deployer, which holds the minter role. */
export async function mintUsdc(to: Address, micro: bigint): Promise<void> {
  const transport = http(process.env.E2E_RPC_URL);
  const wallet = createWalletClient({ chain: foundry, transport });
  const hash = await wallet.writeContract({
    account: admin,
    address: process.env.E2E_USDC as Address,
    abi: TestUSDC.abi,
    functionName: "mint",
    args: [to, micro],
  });
  await createPublicClient({ chain: foundry, transport }).waitForTransactionReceipt({ hash });
}

/** An owner (paid to `payoutWallet`) with one available agent whose webhook is a local echo agent,
 * made with the operator CLI. `listing` is agent:create's flags (name, prices…). */
export async function listAgentWithCli(payoutWallet: Address, listing: string[]): Promise<{ agentId: string; echo: EchoAgent }> {
  const token = randomBytes(32).toString("base64url");
  const echo = await startEchoAgent(token);
  const owner = await operatorCli([
    "owner:create",
    "--email",
    `owner-${randomBytes(6).toString("hex")}@example.com`,
    "--wallet",
    payoutWallet,
  ]);
  const agent = await operatorCli([
    "agent:create",
    "--owner",
    String(owner.accountId),
    ...listing,
    "--webhook-url",
    echo.url,
    "--webhook-token",
    token,
  ]);
  return { agentId: String(agent.id), echo };
}

/**
 * Gives `payee` a credit of `micro` on the escrow, as a payout the token refused would (anvil's
 * storage writes: the credits entry and totalOwed, plus the USDC to back it), so the payouts page
 * has something to withdraw. The slots are found by writing and reading back, not assumed.
 */
export async function creditOnEscrow(payee: Address, micro: bigint): Promise<void> {
  const transport = http(process.env.E2E_RPC_URL);
  const reader = createPublicClient({ chain: foundry, transport });
  const anvil = createTestClient({ chain: foundry, mode: "anvil", transport });
  const escrow = process.env.E2E_ESCROW as Address;
  const read = (functionName: "credits" | "totalOwed") =>
    reader.readContract({
      address: escrow,
      abi: RentalEscrow.abi,
      functionName,
      args: functionName === "credits" ? [payee] : [],
    } as never) as Promise<bigint>;
  const word = (value: bigint) => toHex(value, { size: 32 });
  const owedBefore = await read("totalOwed");
  for (let slot = 0n, found = { credit: false, owed: false }; slot < 32n && !(found.credit && found.owed); slot++) {
    if (!found.credit) {
      const key = keccak256(encodeAbiParameters([{ type: "address" }, { type: "uint256" }], [payee, slot]));
      await anvil.setStorageAt({ address: escrow, index: key, value: word(micro) });
      if ((await read("credits")) === micro) found.credit = true;
      else await anvil.setStorageAt({ address: escrow, index: key, value: word(0n) });
    }
    if (!found.owed) {
      const index = toHex(slot, { size: 32 });
      const old = await reader.getStorageAt({ address: escrow, slot: index });
      await anvil.setStorageAt({ address: escrow, index, value: word(owedBefore + micro) });
      if ((await read("totalOwed")) === owedBefore + micro) found.owed = true;
      else await anvil.setStorageAt({ address: escrow, index, value: old ?? word(0n) });
    }
  }
  await mintUsdc(escrow, micro);
}
