import "server-only";
import { Ratelimit } from "@upstash/ratelimit";
import type { Redis } from "@upstash/redis";
import { type RateDecision, type RateLimiter, rateDecision } from "@/lib/ratelimit/rate-limiter";
import { refillBucket, type TokenBucketPolicy } from "@/lib/ratelimit/token-bucket";
import { withTimeout } from "@/lib/ratelimit/with-timeout";

// Gives back one token to a bucket @upstash/ratelimit's tokenBucket stores (a hash with
// "refilledAt" and "tokens" under "<prefix>:<identifier>"), never past the bucket's size. Its
// own refund (limit with rate -1) would write a token above the maximum, and on a bucket that
// has expired meanwhile it would create one without an expiry.
const REFUND_SCRIPT = `
local tokens = redis.call("HGET", KEYS[1], "tokens")
if tokens and tonumber(tokens) < tonumber(ARGV[1]) then
  return redis.call("HINCRBY", KEYS[1], "tokens", 1)
end
return -1`;

// Production: @upstash/ratelimit's token bucket on Upstash Redis, shared by every instance.
export function createUpstashRateLimiter(policy: TokenBucketPolicy, options: { redis: Redis; timeoutMs: number }): RateLimiter {
  const ratelimit = new Ratelimit({
    redis: options.redis,
    limiter: Ratelimit.tokenBucket(policy.refillRate, `${policy.intervalMs} ms`, policy.maxTokens),
    prefix: policy.prefix,
    timeout: options.timeoutMs,
    analytics: false,
    // Its in-process block list is never pruned, and peek (getRemaining) would not consult it.
    ephemeralCache: false,
  });

  const refundScript = options.redis.createScript<number>(REFUND_SCRIPT);

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
    async refund(key) {
      try {
        const r = await withTimeout(refundScript.exec([`${policy.prefix}:${key}`], [String(policy.maxTokens)]), options.timeoutMs);
        if (r === "timeout") logFailure(policy, "timeout", "the token stays spent");
      } catch (error) {
        logFailure(policy, error, "the token stays spent");
      }
    },
  };
}

// One log line per refusal (or lost refund). Never the key (it holds a client IP) nor an Upstash error message
// (it quotes the command, key included): only the error's name and network code.
function failClosed(policy: TokenBucketPolicy, cause: unknown): RateDecision {
  logFailure(policy, cause, "refusing the request (fails closed)");
  return rateDecision({ allowed: false, limit: policy.maxTokens, remaining: 0, resetAt: Date.now() + 1_000 });
}

function logFailure(policy: TokenBucketPolicy, cause: unknown, outcome: string) {
  const why =
    cause === "timeout"
      ? "timed out"
      : cause instanceof Error
        ? [cause.name, (cause.cause as { code?: string } | undefined)?.code].filter(Boolean).join(" ")
        : "failed";
  console.error(`[ratelimit] ${policy.prefix}: limiter ${why}; ${outcome}`);
}
