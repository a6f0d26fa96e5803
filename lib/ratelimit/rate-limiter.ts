import "server-only";

export type RateDecision = {
  allowed: boolean;
  limit: number;
  remaining: number;
  // When the bucket next gains a token (epoch ms): a denied caller may retry then.
  resetAt: number;
  // Whole seconds 1..60 when denied (the Retry-After header), 0 when allowed.
  retryAfterSeconds: number;
};

export interface RateLimiter {
  // Spends one token for `key`.
  limit(key: string): Promise<RateDecision>;
  // Reports whether `key` could spend a token now, without spending it.
  peek(key: string): Promise<RateDecision>;
  // Gives back one token spent by limit() (a reservation that turned out not to count), never
  // beyond a full bucket. Best effort: a refund that fails leaves the token spent.
  refund(key: string): Promise<void>;
}

// The one place a decision's Retry-After is derived, so every adapter rounds the same way.
export function rateDecision(d: { allowed: boolean; limit: number; remaining: number; resetAt: number }, now = Date.now()): RateDecision {
  const retryAfterSeconds = d.allowed ? 0 : Math.min(60, Math.max(1, Math.ceil((d.resetAt - now) / 1000)));
  return { ...d, remaining: Math.max(0, d.remaining), retryAfterSeconds };
}
