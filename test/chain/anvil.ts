// A private anvil chain per test file (files run in parallel processes) and viem clients for it.
// Starting anvil is shared with `npm run dev` (scripts/start-anvil.ts).
import { type Abi, type Address, createPublicClient, createTestClient, createWalletClient, getAddress, type Hex, http } from "viem";
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
