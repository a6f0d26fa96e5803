import "server-only";
import { findOwnerAgent } from "@/lib/agents/find-owner-agent";
import { newSigningSecret, sealSigningSecret } from "@/lib/agents/webhook-credentials";
import { db } from "@/lib/db";
import { ApiError } from "@/lib/http/api-error";

/**
 * A new signing secret for one of the account's listings, returned this once: calls from now on
 * are signed with it and the old one stops working at once (the owner deploys the new one first,
 * or accepts a few failed verifications). Only for a listing with a webhook connected.
 */
export async function rotateSigningSecret(ownerId: string, agentId: string): Promise<string> {
  const agent = await findOwnerAgent(ownerId, agentId);
  if (!agent.webhookUrlCipher) throw new ApiError(409, "Connect a webhook first: the signing secret comes with it.");
  const secret = newSigningSecret();
  const { count } = await db.agent.updateMany({ where: { id: agent.id, ownerId }, data: sealSigningSecret(agent.id, secret) });
  if (count === 0) throw new ApiError(404, "Agent not found: it was deleted meanwhile.");
  return secret;
}
