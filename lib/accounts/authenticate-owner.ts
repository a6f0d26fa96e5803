import "server-only";
import { hashApiKey, isWellFormedApiKey } from "@/lib/crypto/api-key";
import { db } from "@/lib/db";
import { ApiError } from "@/lib/http/api-error";
import { clientIp } from "@/lib/http/client-ip";
import { credentialFromHeaders } from "@/lib/http/credential-from-headers";
import { rateLimitError } from "@/lib/http/rate-limit-error";
import { credentialDigest, type KnownCredentials } from "@/lib/ratelimit/known-credentials";
import { knownCredentials, limiters } from "@/lib/ratelimit/policies";
import type { RateLimiter } from "@/lib/ratelimit/rate-limiter";
import { withFailureBudgets } from "@/lib/ratelimit/with-failure-budgets";

export type OwnerAuth = { accountId: string; keyId: string };

export type OwnerAuthDeps = { failedAttempts: RateLimiter; known: KnownCredentials };

const defaultDeps = (): OwnerAuthDeps => ({ failedAttempts: limiters().ownerAuthFailure, known: knownCredentials() });

// lastUsedAt is for the dashboard ("used 3 minutes ago"): minute precision is enough, and
// writing it on every request would turn each read into a write.
const LAST_USED_PRECISION_MS = 60_000;

// How long a key that worked skips the failed-attempt budget. Revocation is still checked on
// every request; this only spares a busy script the reservation.
const REMEMBER_VALID_KEY_MS = 60 * 60 * 1000;

// Resolves the owner API key of a /public request. The 30/min limit is per key, so a request
// without a valid key (missing, malformed, unknown, revoked) also spends from a budget of 10 a
// minute per client IP, reserved before the key is checked (withFailureBudgets): made-up keys do
// not each get a fresh bucket, and parallel ones cannot outrun it. A key that fails the checksum
// is refused before any database work; unknown and revoked keys get the same answer, so a caller
// learns nothing about which keys once existed. Keys are looked up by their SHA-256 (unique
// index): the plain key is never stored, and an index lookup on a hash leaks nothing by timing.
export async function authenticateOwner(req: Request, deps: OwnerAuthDeps = defaultDeps()): Promise<OwnerAuth> {
  const key = credentialFromHeaders(req.headers);
  return withFailureBudgets({
    digest: key && isWellFormedApiKey(key) ? credentialDigest("owner-key", key) : null,
    known: deps.known,
    budgets: [
      {
        limiter: deps.failedAttempts,
        key: clientIp(req.headers),
        refused: (d) => rateLimitError(d, "Too many requests without a valid API key from this address (at most 10 a minute)"),
      },
    ],
    attempt: async () => {
      if (!key) {
        return {
          ok: false,
          error: new ApiError(401, "Missing API key: send it as 'Authorization: Bearer <OWNER_API_KEY>' or 'X-API-Key: <OWNER_API_KEY>'."),
        };
      }
      if (!isWellFormedApiKey(key)) {
        return {
          ok: false,
          error: new ApiError(401, "Malformed API key: owner keys are 'rck_' followed by 28 letters and digits; copy the key again."),
        };
      }
      const row = await db.apiKey.findUnique({
        where: { keyHash: hashApiKey(key) },
        select: { id: true, accountId: true, revokedAt: true, lastUsedAt: true },
      });
      if (!row || row.revokedAt) return { ok: false, error: new ApiError(401, "Invalid or revoked API key.") };
      await touchLastUsed(row.id, row.lastUsedAt);
      return { ok: true, value: { accountId: row.accountId, keyId: row.id }, rememberForMs: REMEMBER_VALID_KEY_MS };
    },
  });
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
