import "server-only";
import { db } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";

/**
 * Rentals on record for an agent, whatever their state: a listing with any cannot be deleted. Free
 * trials are not rentals on record: nothing was paid, nothing needs tracing (docs/trials.md).
 */
export function countAgentRentals(agentId: string, client: Prisma.TransactionClient = db): Promise<number> {
  return client.rental.count({ where: { agentId, trial: false } });
}
