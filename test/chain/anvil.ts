// A private anvil chain per test file (files run in parallel processes) and viem clients for it.
// Starting anvil is shared with `npm run dev` (scripts/start-anvil.ts).
import {
  type Abi,
  type Address,
  createPublicClient,
  createTestClient,
  createWalletClient,
  getAddress,
  type Hex,
  http,
  WaitForTransactionReceiptTimeoutError,
} from "viem";
import { foundry } from "viem/chains";
import { startAnvil } from "../../scripts/start-anvil";

export { type Anvil, accounts, startAnvil } from "../../scripts/start-anvil";

/** viem clients for an anvil chain; transactions are sent from anvil's unlocked accounts. */
export function connect(rpcUrl: string) {
  const transport = http(rpcUrl);
  // Fast polling: anvil mines each transaction at once, so receipts are ready immediately.
  const publicClient = createPublicClient({ chain: foundry, transport, pollingInterval: 10, cacheTime: 0 });
  const walletClient = createWalletClient({ chain: foundry, transport, pollingInterval: 10, cacheTime: 0 });
  const testClient = createTestClient({ chain: foundry, transport, mode: "anvil" });

  /**
   * The receipt of a transaction sent while anvil mines each one as it comes. anvil 1.7's automine
   * can leave a ready transaction in its pool unmined (foundry-rs/foundry#10122, with many sent at
   * once from one account; seen in CI as a mint that waited out viem's 3 minutes, right after the
   * test that settles 20 paid answers at once): if it is not mined after 15 s, one block is mined by
   * hand, which takes every ready transaction. On a machine too busy to mine within 15 s that only
   * adds an empty block.
   */
  async function mined(hash: Hex) {
    try {
      return await publicClient.waitForTransactionReceipt({ hash, timeout: 15_000 });
    } catch (error) {
      if (!(error instanceof WaitForTransactionReceiptTimeoutError)) throw error;
      await testClient.mine({ blocks: 1 });
      return publicClient.waitForTransactionReceipt({ hash });
    }
  }

  async function deploy(from: Address, artifact: { abi: Abi; bytecode: Hex }, args: readonly unknown[] = []) {
    const hash = await walletClient.deployContract({ account: from, ...artifact, args });
    const receipt = await mined(hash);
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

  return { publicClient, walletClient, testClient, mined, deploy, isolated, increaseTime, now };
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
