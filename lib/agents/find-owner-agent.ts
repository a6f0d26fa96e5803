import "server-only";
import { z } from "zod";
import { db } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import { ApiError } from "@/lib/http/api-error";

const agentIdSchema = z.guid();

// One agent of the calling account. A malformed id, an unknown id and another account's agent
// all read as the same 404, so an owner key never reveals that someone else's agent exists.
// Given a transaction, the row stays locked until it commits, so a check made on it (no active
// rental, one price left) still holds when the change is written.
export async function findOwnerAgent(ownerId: string, agentId: string, tx?: Prisma.TransactionClient) {
  const notFound = new ApiError(404, "Agent not found: no agent with this id belongs to your account.");
  if (!agentIdSchema.safeParse(agentId).success) throw notFound;
  const client = tx ?? db;
  if (tx) await tx.$queryRaw`SELECT 1 FROM agents WHERE id = ${agentId}::uuid AND owner_id = ${ownerId}::uuid FOR UPDATE`;
  const agent = await client.agent.findFirst({ where: { id: agentId, ownerId } });
  if (!agent) throw notFound;
  return agent;
}
