import "server-only";
import { chainClients } from "@/lib/chain/chain-clients";

/**
 * The newest block `CHAIN_CONFIRMATIONS` deep: the service takes facts about money (payments,
 * releases, refunds, dispute outcomes) only from blocks at or below it, so a reorg shallower than
 * the confirmations never reaches the database. Deeper ones are undone (lib/chain/undo-reorgs.ts).
 */
export async function finalBlockNumber(): Promise<bigint> {
  const { publicClient, config } = chainClients();
  // cacheTime 0: a head cached by viem (up to 4 s) would leave out blocks mined since.
  const head = await publicClient.getBlockNumber({ cacheTime: 0 });
  const depth = BigInt(config.confirmations - 1);
  return head > depth ? head - depth : 0n;
}
