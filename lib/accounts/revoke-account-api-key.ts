import "server-only";
import { z } from "zod";
import { db } from "@/lib/db";
import { ApiError } from "@/lib/http/api-error";

const keyIdSchema = z.guid();

// Revokes one key of the signed-in account (the dashboard's Revoke button). Another account's
// key, an unknown id and a malformed one read alike, so the form reveals nothing; revoking a key
// twice is harmless. Takes effect on the next request: keys are checked on every request.
export async function revokeAccountApiKey(accountId: string, keyId: string) {
  const notFound = new ApiError(404, "API key not found: no key with this id belongs to your account.");
  if (!keyIdSchema.safeParse(keyId).success) throw notFound;
  const key = await db.apiKey.findFirst({
    where: { id: keyId, accountId },
    select: { id: true, prefix: true, revokedAt: true },
  });
  if (!key) throw notFound;
  if (key.revokedAt) return { prefix: key.prefix, revokedAt: key.revokedAt };
  const revokedAt = new Date();
  await db.apiKey.updateMany({ where: { id: key.id, accountId, revokedAt: null }, data: { revokedAt } });
  return { prefix: key.prefix, revokedAt };
}
