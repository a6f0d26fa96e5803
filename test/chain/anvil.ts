// A private anvil chain per test file (files run in parallel processes) and viem clients for it.
// The native binary is started directly: killing an `npx anvil` wrapper would orphan the chain.
import { type ChildProcess, spawn } from "node:child_process";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import path from "node:path";
import {
  type Abi,
  type Address,
  type Hex,
  createPublicClient,
  createTestClient,
  createWalletClient,
  getAddress,
  http,
} from "viem";
import { mnemonicToAccount } from "viem/accounts";
import { foundry } from "viem/chains";

const ANVIL_BIN = path.join(
  path.dirname(createRequire(import.meta.url).resolve("@foundry-rs/anvil-linux-amd64/package.json")),
  "bin/anvil",
);

// anvil's default mnemonic: its first ten accounts are funded and unlocked.
const MNEMONIC = "test test test test test test test test test test test junk";
export const accounts = Array.from({ length: 10 }, (_, i) => mnemonicToAccount(MNEMONIC, { addressIndex: i }));

export type Anvil = { rpcUrl: string; stop: () => Promise<void> };

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function answers(rpcUrl: string): Promise<boolean> {
  try {
    const response = await fetch(rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
    });
    return response.ok;
  } catch {
    return false;
  }
}

function stopper(child: ChildProcess): () => Promise<void> {
  return () =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
    });
}

/** Starts anvil on a free 127.0.0.1 port and resolves once it answers JSON-RPC. */
export async function startAnvil(): Promise<Anvil> {
  // Another process may grab the port between freePort() and anvil's bind: then try another.
  for (let attempt = 0; attempt < 5; attempt++) {
    const port = await freePort();
    const rpcUrl = `http://127.0.0.1:${port}`;
    const child = spawn(ANVIL_BIN, ["--host", "127.0.0.1", "--port", String(port), "--silent"], {
      stdio: "ignore",
    });
    const stop = stopper(child);
    const deadline = Date.now() + 10_000;
    while (child.exitCode === null && Date.now() < deadline) {
      if (await answers(rpcUrl)) return { rpcUrl, stop };
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await stop();
  }
  throw new Error(`anvil did not start (${ANVIL_BIN})`);
}

/** viem clients for an anvil chain; transactions are sent from anvil's unlocked accounts. */
export function connect(rpcUrl: string) {
  const transport = http(rpcUrl);
  // Fast polling: anvil mines each transaction at once, so receipts are ready immediately.
  const publicClient = createPublicClient({ chain: foundry, transport, pollingInterval: 10, cacheTime: 0 });
  const walletClient = createWalletClient({ chain: foundry, transport, pollingInterval: 10, cacheTime: 0 });
  const testClient = createTestClient({ chain: foundry, transport, mode: "anvil" });

  async function deploy(from: Address, artifact: { abi: Abi; bytecode: Hex }, args: readonly unknown[] = []) {
    const hash = await walletClient.deployContract({ account: from, ...artifact, args });
    const receipt = await publicClient.waitForTransactionReceipt({ hash });
    if (!receipt.contractAddress) throw new Error("deployment produced no contract");
    return getAddress(receipt.contractAddress);
  }

  /** Runs `body` and then rewinds the chain (state and clock) to where it was. */
  async function isolated<T>(body: () => Promise<T>): Promise<T> {
    const id = await testClient.snapshot();
    try {
      return await body();
    } finally {
      await testClient.revert({ id });
    }
  }

  /** Mines a block `seconds` after the latest one. */
  async function increaseTime(seconds: number | bigint): Promise<void> {
    await testClient.setNextBlockTimestamp({ timestamp: (await now()) + BigInt(seconds) });
    await testClient.mine({ blocks: 1 });
  }

  async function now(): Promise<bigint> {
    return (await publicClient.getBlock()).timestamp;
  }

  return { publicClient, walletClient, testClient, deploy, isolated, increaseTime, now };
}

export type Chain = ReturnType<typeof connect>;

/** Starts anvil and connects to it, with a predictable clock: every block is mined exactly one
 * second after the previous one (whatever the wall clock), so tests know each transaction's
 * block.timestamp in advance; `increaseTime` jumps ahead. */
export async function startChain(): Promise<Chain & { stop: () => Promise<void> }> {
  const anvil = await startAnvil();
  const chain = connect(anvil.rpcUrl);
  await chain.testClient.setBlockTimestampInterval({ interval: 1 });
  return { ...chain, stop: anvil.stop };
}
