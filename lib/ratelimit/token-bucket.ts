import "server-only";

// A bucket of `maxTokens` that gains `refillRate` tokens every `intervalMs`, in whole steps
// counted from `refilledAt`: the arithmetic of @upstash/ratelimit's tokenBucket script, so both
// adapters (and Upstash's peek, whose stored count predates the refills since) agree exactly.
export type TokenBucketPolicy = {
  prefix: string;
  maxTokens: number;
  refillRate: number;
  intervalMs: number;
};

export type Bucket = { tokens: number; refilledAt: number };

export function refillBucket(policy: TokenBucketPolicy, bucket: Bucket, now: number): Bucket {
  const steps = Math.floor(Math.max(0, now - bucket.refilledAt) / policy.intervalMs);
  if (steps === 0) return bucket;
  return {
    tokens: Math.min(policy.maxTokens, bucket.tokens + steps * policy.refillRate),
    refilledAt: bucket.refilledAt + steps * policy.intervalMs,
  };
}

// From then on the bucket is indistinguishable from a fresh one (Redis expires the key then too).
export function bucketFullAt(policy: TokenBucketPolicy, bucket: Bucket): number {
  return bucket.refilledAt + Math.ceil((policy.maxTokens - bucket.tokens) / policy.refillRate) * policy.intervalMs;
}
