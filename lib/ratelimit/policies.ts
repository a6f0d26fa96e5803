import "server-only";
import { Redis } from "@upstash/redis";
import { env } from "@/lib/env";
import { createMemoryRateLimiter } from "@/lib/ratelimit/memory-rate-limiter";
import type { RateLimiter } from "@/lib/ratelimit/rate-limiter";
import type { TokenBucketPolicy } from "@/lib/ratelimit/token-bucket";
import { createUpstashRateLimiter } from "@/lib/ratelimit/upstash-rate-limiter";

// Every limit the service applies. Token buckets: a full bucket absorbs a burst, then the
// refill rate is the sustained rate.
export const policies = {
  // /v1/* per client IP (spec: 60/min, short bursts tolerated): the 61st rapid request waits 1 s.
  renterApi: { prefix: "ars:rl:renter-api", maxTokens: 60, refillRate: 1, intervalMs: 1_000 },
  // Rental-code lookups that found nothing, per client IP: 10 per minute. Once it is empty the
  // IP's lookups are refused (peek) until a token returns, which makes guessing codes slow.
  failedCodeLookup: { prefix: "ars:rl:failed-code-lookup", maxTokens: 10, refillRate: 1, intervalMs: 6_000 },
  // Owner surface per API key (Rentr's documented 30/min).
  ownerApi: { prefix: "ars:rl:owner-api", maxTokens: 30, refillRate: 1, intervalMs: 2_000 },
  // Checkout (quotes store a pending rental; confirms read the chain), per client IP: 20/min.
  checkout: { prefix: "ars:rl:checkout", maxTokens: 20, refillRate: 1, intervalMs: 3_000 },
  // Sign-in routes (nonce, SIWE, e-mail link, link callback), per client IP: 10/min.
  auth: { prefix: "ars:rl:auth", maxTokens: 10, refillRate: 1, intervalMs: 6_000 },
} satisfies Record<string, TokenBucketPolicy>;

export type Limiters = Record<keyof typeof policies, RateLimiter>;

// Kept on globalThis: Next.js may evaluate this module more than once (per route bundle, and
// on every hot reload), and in-memory buckets must be shared by all /v1 routes of the process.
const LIMITERS = Symbol.for("agent-rental-service.limiters");
const holder = globalThis as typeof globalThis & { [LIMITERS]?: Limiters };

export function limiters(): Limiters {
  holder[LIMITERS] ??= createLimiters();
  return holder[LIMITERS];
}

// One code path: Upstash when configured, otherwise the in-memory store; only the adapter differs.
function createLimiters(): Limiters {
  const { UPSTASH_REDIS_REST_URL: url, UPSTASH_REDIS_REST_TOKEN: token } = env;
  const redis = url && token ? new Redis({ url, token }) : null;
  const create = (policy: TokenBucketPolicy) =>
    redis
      ? createUpstashRateLimiter(policy, { redis, timeoutMs: env.RATE_LIMIT_TIMEOUT_MS })
      : createMemoryRateLimiter(policy);
  return {
    renterApi: create(policies.renterApi),
    failedCodeLookup: create(policies.failedCodeLookup),
    ownerApi: create(policies.ownerApi),
    checkout: create(policies.checkout),
    auth: create(policies.auth),
  };
}
