import "server-only";
import { type RateLimiter, rateDecision } from "@/lib/ratelimit/rate-limiter";
import { type Bucket, bucketFullAt, refillBucket, type TokenBucketPolicy } from "@/lib/ratelimit/token-bucket";

// The embedded default: the same token bucket as the Upstash adapter, held in this process
// (so limits are per process, which is what `npm run dev` and a single server need).
export function createMemoryRateLimiter(policy: TokenBucketPolicy, options: { maxEntries?: number } = {}): RateLimiter {
  const maxEntries = options.maxEntries ?? 10_000;
  // Insertion order doubles as least-recently-spent order: limit() re-inserts the key it touches.
  const buckets = new Map<string, Bucket>();

  // Bounded so a flood of distinct keys (IPs) cannot grow memory without limit. Full buckets go
  // first, since dropping them changes nothing; if that is not enough, the least recently used
  // ones go, 10% at a time so that the sweep is not repeated on every new key.
  function makeRoom(now: number) {
    for (const [key, bucket] of buckets) if (bucketFullAt(policy, bucket) <= now) buckets.delete(key);
    const target = Math.floor(maxEntries * 0.9);
    for (const key of buckets.keys()) {
      if (buckets.size <= target) break;
      buckets.delete(key);
    }
  }

  function current(key: string, now: number): Bucket {
    const stored = buckets.get(key);
    return stored ? refillBucket(policy, stored, now) : { tokens: policy.maxTokens, refilledAt: now };
  }

  function decide(allowed: boolean, bucket: Bucket, now: number) {
    const resetAt = bucket.refilledAt + policy.intervalMs;
    return rateDecision({ allowed, limit: policy.maxTokens, remaining: bucket.tokens, resetAt }, now);
  }

  return {
    async limit(key) {
      const now = Date.now();
      const bucket = current(key, now);
      if (bucket.tokens < 1) return decide(false, bucket, now);
      const spent = { tokens: bucket.tokens - 1, refilledAt: bucket.refilledAt };
      if (!buckets.delete(key) && buckets.size >= maxEntries) makeRoom(now);
      buckets.set(key, spent);
      return decide(true, spent, now);
    },
    async peek(key) {
      const now = Date.now();
      const bucket = current(key, now);
      return decide(bucket.tokens >= 1, bucket, now);
    },
    async refund(key) {
      // A bucket that is gone was full (or dropped as full): nothing to give back.
      const stored = buckets.get(key);
      if (!stored) return;
      const bucket = refillBucket(policy, stored, Date.now());
      buckets.set(key, { tokens: Math.min(policy.maxTokens, bucket.tokens + 1), refilledAt: bucket.refilledAt });
    },
  };
}
