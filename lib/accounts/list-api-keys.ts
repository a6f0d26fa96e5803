import "server-only";
import { db } from "@/lib/db";

// An account's owner API keys for display: prefix, label and dates, never a hash. Active keys
// first, newest first.
export async function listApiKeys(accountId: string) {
  const keys = await db.apiKey.findMany({
    where: { accountId },
    select: { id: true, prefix: true, label: true, createdAt: true, lastUsedAt: true, revokedAt: true },
    orderBy: [{ createdAt: "desc" }, { id: "asc" }],
  });
  return keys.sort((a, b) => Number(a.revokedAt !== null) - Number(b.revokedAt !== null));
}

export type ApiKeyListing = Awaited<ReturnType<typeof listApiKeys>>[number];
