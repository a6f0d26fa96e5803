import "server-only";
import type { KnownCredentials } from "@/lib/ratelimit/known-credentials";

// The embedded default of the known-credentials store: entries with an expiry, in this process.
export function createMemoryKnownCredentials(options: { maxEntries?: number } = {}): KnownCredentials {
  const maxEntries = options.maxEntries ?? 100_000;
  // Insertion order is remembering order: when full, expired entries go first, then the oldest
  // (a forgotten entry only costs its owner one reserved-and-refunded token).
  const expiries = new Map<string, number>();

  function makeRoom(now: number) {
    for (const [digest, expiresAt] of expiries) if (expiresAt <= now) expiries.delete(digest);
    const target = Math.floor(maxEntries * 0.9);
    for (const digest of expiries.keys()) {
      if (expiries.size <= target) break;
      expiries.delete(digest);
    }
  }

  return {
    async has(digest) {
      const expiresAt = expiries.get(digest);
      if (expiresAt === undefined) return false;
      if (expiresAt > Date.now()) return true;
      expiries.delete(digest);
      return false;
    },
    async remember(digest, ttlMs) {
      if (!(ttlMs > 0)) return;
      const now = Date.now();
      if (!expiries.delete(digest) && expiries.size >= maxEntries) makeRoom(now);
      expiries.set(digest, now + ttlMs);
    },
    async forget(digest) {
      expiries.delete(digest);
    },
  };
}
