import "server-only";
import type { Prisma } from "@/lib/generated/prisma/client";

/**
 * Keeps the hash of a block the database took something from, so a later reorg of it is noticed
 * (lib/chain/undo-reorgs.ts). A hash already kept for that height stays: if it differs, the chain
 * changed under the database, and the next check finds it.
 */
export async function rememberBlock(client: Prisma.TransactionClient, number: bigint, hash: string): Promise<void> {
  await client.$executeRaw`
    INSERT INTO chain_blocks (number, hash) VALUES (${number}, ${hash.toLowerCase()}) ON CONFLICT (number) DO NOTHING`;
}
