import "server-only";
import type { RateDecision, RateLimiter } from "@/lib/ratelimit/rate-limiter";

export type ChatCallTokens = ReturnType<typeof chatCallTokens>;

/**
 * The rate-limit tokens of the chat calls in one MCP request. The request's own token (taken by
 * renterRoute) pays for its first chat call; each further one, which only a JSON-RPC batch can
 * carry (up to 100 messages), takes one more from the same bucket before it is sent. So a batch
 * reaches the owner's webhook no more often than as many /v1/chat requests could, and a call past
 * the empty bucket is refused without reaching it.
 */
export function chatCallTokens(bucket: { limiter: RateLimiter; key: string }) {
  let calls = 0;
  let lowest: RateDecision | undefined;
  return {
    /** This chat call's token: null when it has one, otherwise the refusal (the bucket is empty). */
    async take(): Promise<RateDecision | null> {
      if (calls++ === 0) return null;
      const decision = await bucket.limiter.limit(bucket.key);
      // A batch's calls run at once and their answers come back in any order: the fewest tokens
      // left is where the bucket stands after the request.
      if (!lowest || decision.remaining <= lowest.remaining) lowest = decision;
      return decision.allowed ? null : decision;
    },
    /** The bucket after the request's further tokens, for its RateLimit headers; none taken: undefined. */
    lowest: () => lowest,
  };
}
