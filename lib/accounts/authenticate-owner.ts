import "server-only";
import { db } from "@/lib/db";
import { hashApiKey, isWellFormedApiKey } from "@/lib/crypto/api-key";
import { ApiError } from "@/lib/http/api-error";
import { credentialFromHeaders } from "@/lib/http/credential-from-headers";

export type OwnerAuth = { accountId: string; keyId: string };

// lastUsedAt is for the dashboard ("used 3 minutes ago"): minute precision is enough, and
// writing it on every request would turn each read into a write.
const LAST_USED_PRECISION_MS = 60_000;

// Resolves the owner API key of a /public request. A key that fails the checksum is refused
// before any database work; unknown and revoked keys get the same answer, so a caller learns
// nothing about which keys once existed. Keys are looked up by their SHA-256 (unique index):
// the plain key is never stored, and an index lookup on a hash leaks nothing useful by timing.
export async function authenticateOwner(req: Request): Promise<OwnerAuth> {
  const key = credentialFromHeaders(req.headers);
  if (!key) {
    throw new ApiError(401, "Missing API key: send it as 'Authorization: Bearer <OWNER_API_KEY>' or 'X-API-Key: <OWNER_API_KEY>'.");
  }
  if (!isWellFormedApiKey(key)) {
    throw new ApiError(401, "Malformed API key: owner keys are 'rck_' followed by 28 letters and digits; copy the key again.");
  }
  const row = await db.apiKey.findUnique({
    where: { keyHash: hashApiKey(key) },
    select: { id: true, accountId: true, revokedAt: true, lastUsedAt: true },
  });
  if (!row || row.revokedAt) throw new ApiError(401, "Invalid or revoked API key.");
  await touchLastUsed(row.id, row.lastUsedAt);
  return { accountId: row.accountId, keyId: row.id };
}

async function touchLastUsed(keyId: string, lastUsedAt: Date | null, now = new Date()): Promise<void> {
  const staleBefore = new Date(now.getTime() - LAST_USED_PRECISION_MS);
  if (lastUsedAt && lastUsedAt > staleBefore) return;
  // The condition is repeated in the update so that concurrent requests write once, not each.
  await db.apiKey.updateMany({
    where: { id: keyId, OR: [{ lastUsedAt: null }, { lastUsedAt: { lte: staleBefore } }] },
    data: { lastUsedAt: now },
  });
}
