import "server-only";
import { db } from "@/lib/db";

// Revokes every active key with this display prefix (in practice one: prefixes carry 47 random
// bits). Takes effect on the next request: keys are checked against the database every time.
export async function revokeApiKeys(prefix: string): Promise<number> {
  const { count } = await db.apiKey.updateMany({ where: { prefix, revokedAt: null }, data: { revokedAt: new Date() } });
  return count;
}
