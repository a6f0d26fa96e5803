import "server-only";
import { chainClients } from "@/lib/chain/chain-clients";

/** When a block was mined: events are dated by the chain's time, not by when the service read them. */
export async function blockTime(blockNumber: bigint): Promise<Date> {
  const { timestamp } = await chainClients().publicClient.getBlock({ blockNumber });
  return new Date(Number(timestamp) * 1000);
}
