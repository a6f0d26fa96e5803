import "server-only";
import { db } from "@/lib/db";
import { generateApiKey } from "@/lib/crypto/api-key";

// A new owner API key: only its SHA-256 and display prefix are stored.
export async function issueApiKey(accountId: string, label?: string) {
  const { key, prefix, hash } = generateApiKey();
  await db.apiKey.create({ data: { accountId, keyHash: hash, prefix, label } });
  return { apiKey: key, prefix };
}
