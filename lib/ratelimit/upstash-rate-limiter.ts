import "server-only";
import { Ratelimit } from "@upstash/ratelimit";
import type { Redis } from "@upstash/redis";
import { rateDecision, type RateDecision, type RateLimiter } from "@/lib/ratelimit/rate-limiter";
import { refillBucket, type TokenBucketPolicy } from "@/lib/ratelimit/token-bucket";

// Production: @upstash/ratelimit's token bucket on Upstash Redis, shared by every instance.
export function createUpstashRateLimiter(
  policy: TokenBucketPolicy,
  options: { redis: Redis; timeoutMs: number },
): RateLimiter {
  const ratelimit = new Ratelimit({
    redis: options.redis,
    limiter: Ratelimit.tokenBucket(policy.refillRate, `${policy.intervalMs} ms`, policy.maxTokens),
    prefix: policy.prefix,
    timeout: options.timeoutMs,
    analytics: false,
    // Its in-process block list is never pruned, and peek (getRemaining) would not consult it.
    ephemeralCache: false,
  });

  return {
    async limit(key) {
      try {
        const r = await ratelimit.limit(key);
        // On timeout the library answers success (fails open); a limiter guarding
        // authentication must not, so a slow Redis means "not now".
        if (r.reason === "timeout") return failClosed(policy, "timeout");
        return rateDecision({ allowed: r.success, limit: r.limit, remaining: r.remaining, resetAt: r.reset });
      } catch (error) {
        return failClosed(policy, error);
      }
    },
    async peek(key) {
      try {
        // getRemaining has no timeout of its own.
        const r = await withTimeout(ratelimit.getRemaining(key), options.timeoutMs);
        if (r === "timeout") return failClosed(policy, "timeout");
        // It reports the count stored at the last spend (reset = that refill time + interval);
        // add the refills since, as the next limit() would.
        const now = Date.now();
        const bucket = refillBucket(policy, { tokens: r.remaining, refilledAt: r.reset - policy.intervalMs }, now);
        const resetAt = bucket.refilledAt + policy.intervalMs;
        return rateDecision({ allowed: bucket.tokens >= 1, limit: r.limit, remaining: bucket.tokens, resetAt }, now);
      } catch (error) {
        return failClosed(policy, error);
      }
    },
  };
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T | "timeout"> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<"timeout">((resolve) => {
    timer = setTimeout(resolve, ms, "timeout");
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

// One log line per refusal. Never the key (it holds a client IP) nor an Upstash error message
// (it quotes the command, key included): only the error's name and network code.
function failClosed(policy: TokenBucketPolicy, cause: unknown): RateDecision {
  const why =
    cause === "timeout"
      ? "timed out"
      : cause instanceof Error
        ? [cause.name, (cause.cause as { code?: string } | undefined)?.code].filter(Boolean).join(" ")
        : "failed";
  console.error(`[ratelimit] ${policy.prefix}: limiter ${why}; refusing the request (fails closed)`);
  return rateDecision({ allowed: false, limit: policy.maxTokens, remaining: 0, resetAt: Date.now() + 1_000 });
}
