import { plural } from "@/lib/format/plural";
import { ApiError } from "@/lib/http/api-error";
import type { RateDecision } from "@/lib/ratelimit/rate-limiter";

export function rateLimitHeaders(d: RateDecision): Record<string, string> {
  return {
    "RateLimit-Limit": String(d.limit),
    "RateLimit-Remaining": String(Math.max(0, d.remaining)),
    "RateLimit-Reset": String(Math.max(0, Math.ceil((d.resetAt - Date.now()) / 1000))),
  };
}

// A 429 whose headers describe the limit that refused. `reason` says which limit it was, as a
// sentence fragment ("Too many wrong rental codes from this address"); the wait is appended.
export function rateLimitError(d: RateDecision, reason = "Too many requests"): ApiError {
  const seconds = Math.min(60, Math.max(1, d.retryAfterSeconds));
  return new ApiError(429, `${reason}; retry in ${plural(seconds, "second")}.`, {
    ...rateLimitHeaders(d),
    "Retry-After": String(seconds),
  });
}
