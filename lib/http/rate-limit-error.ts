import { ApiError } from "@/lib/http/api-error";
import type { RateDecision } from "@/lib/ratelimit/rate-limiter";

export function rateLimitHeaders(d: RateDecision): Record<string, string> {
  return {
    "RateLimit-Limit": String(d.limit),
    "RateLimit-Remaining": String(Math.max(0, d.remaining)),
    "RateLimit-Reset": String(Math.max(0, Math.ceil((d.resetAt - Date.now()) / 1000))),
  };
}

export function rateLimitError(d: RateDecision): ApiError {
  const seconds = Math.min(60, Math.max(1, d.retryAfterSeconds));
  return new ApiError(429, `Too many requests; retry in ${seconds} second${seconds === 1 ? "" : "s"}.`, {
    ...rateLimitHeaders(d),
    "Retry-After": String(seconds),
  });
}
