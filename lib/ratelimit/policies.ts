import "server-only";
import { Redis } from "@upstash/redis";
import { env } from "@/lib/env";
import type { KnownCredentials } from "@/lib/ratelimit/known-credentials";
import { createMemoryKnownCredentials } from "@/lib/ratelimit/memory-known-credentials";
import { createMemoryRateLimiter } from "@/lib/ratelimit/memory-rate-limiter";
import type { RateLimiter } from "@/lib/ratelimit/rate-limiter";
import type { TokenBucketPolicy } from "@/lib/ratelimit/token-bucket";
import { createUpstashKnownCredentials } from "@/lib/ratelimit/upstash-known-credentials";
import { createUpstashRateLimiter } from "@/lib/ratelimit/upstash-rate-limiter";

// `n` per minute with a burst of `n`, as a bucket refilling one token at a time.
function perMinute(prefix: string, n: number): TokenBucketPolicy {
  return { prefix, maxTokens: n, refillRate: 1, intervalMs: Math.max(1, Math.round(60_000 / n)) };
}

// Every limit the service applies. Token buckets: a full bucket absorbs a burst, then the
// refill rate is the sustained rate. Per-IP keys come from clientIp (an IPv6 /64 is one client).
export const policies = {
  // /v1/* per client IP (spec: 60/min, short bursts tolerated): the 61st rapid request waits 1 s.
  renterApi: { prefix: "ars:rl:renter-api", maxTokens: 60, refillRate: 1, intervalMs: 1_000 },
  // Rental-code lookups that found nothing, per client IP: 10 per minute. A token is reserved
  // before each lookup of a code not known to work and kept if the code matches no rental.
  failedCodeLookup: { prefix: "ars:rl:failed-code-lookup", maxTokens: 10, refillRate: 1, intervalMs: 6_000 },
  // The same across all clients (one key): the breaker against guesses spread over many
  // addresses. While it is empty, only codes known to work are looked up.
  failedCodeLookupGlobal: perMinute("ars:rl:failed-code-lookup-global", env.FAILED_CODE_LOOKUPS_GLOBAL_PER_MINUTE),
  // Answers sold per message (x402): a paying wallet whose payments failed verification 10 times
  // within a minute is refused until the minute has passed (a token spent per failure, all ten
  // back together).
  paymentVerifyFailure: { prefix: "ars:rl:payment-verify-failure", maxTokens: 10, refillRate: 10, intervalMs: 60_000 },
  // Owner surface per API key (Rentr's documented 30/min).
  ownerApi: { prefix: "ars:rl:owner-api", maxTokens: 30, refillRate: 1, intervalMs: 2_000 },
  // Owner-surface requests without a valid key (missing, malformed, unknown, revoked), per
  // client IP: 10/min, so made-up keys do not each get a 30/min bucket of their own.
  ownerAuthFailure: { prefix: "ars:rl:owner-auth-failure", maxTokens: 10, refillRate: 1, intervalMs: 6_000 },
  // Checkout (quotes store a pending rental; confirms read the chain), per client IP: 20/min.
  checkout: { prefix: "ars:rl:checkout", maxTokens: 20, refillRate: 1, intervalMs: 3_000 },
  // Sign-in routes (nonce, SIWE, e-mail link, link callback), per client IP: 10/min.
  auth: { prefix: "ars:rl:auth", maxTokens: 10, refillRate: 1, intervalMs: 6_000 },
  // Dashboard server actions, per account: 30/min (people click; scripts use the owner API).
  dashboardAction: { prefix: "ars:rl:dashboard-action", maxTokens: 30, refillRate: 1, intervalMs: 2_000 },
  // Webhook test connections (dashboard and owner API) send a request to a URL the owner
  // chooses, so they must not become a reflector: 10 per 10 minutes per account, and at most 5
  // in a row per listing (then one a minute).
  webhookTestAccount: { prefix: "ars:rl:webhook-test-account", maxTokens: 10, refillRate: 1, intervalMs: 60_000 },
  webhookTestAgent: { prefix: "ars:rl:webhook-test-agent", maxTokens: 5, refillRate: 1, intervalMs: 60_000 },
  // Failed `/start <code>` attempts on a chat bot (docs/channels.md). Never per IP: the platform's
  // servers send every request. Per chat user 5 an hour (one back every 12 minutes), and per
  // platform 300 an hour across all its users; a code seen working skips both.
  chatStartFailure: { prefix: "ars:rl:chat-start-failure", maxTokens: 5, refillRate: 1, intervalMs: 720_000 },
  chatStartFailurePlatform: {
    prefix: "ars:rl:chat-start-failure-platform",
    maxTokens: 300,
    refillRate: 1,
    intervalMs: 12_000,
  },
} satisfies Record<string, TokenBucketPolicy>;

export type Limiters = Record<keyof typeof policies, RateLimiter>;

// Credentials known to work (lib/ratelimit/known-credentials.ts), in the same store.
const KNOWN_CREDENTIALS_PREFIX = "ars:known-credential";

type Store = { limiters: Limiters; knownCredentials: KnownCredentials };

// Kept on globalThis: Next.js may evaluate this module more than once (per route bundle, and
// on every hot reload), and in-memory buckets must be shared by all /v1 routes of the process.
const STORE = Symbol.for("agent-rental-service.rate-limit-store");
const holder = globalThis as typeof globalThis & { [STORE]?: Store };

function store(): Store {
  holder[STORE] ??= createStore();
  return holder[STORE];
}

export function limiters(): Limiters {
  return store().limiters;
}

export function knownCredentials(): KnownCredentials {
  return store().knownCredentials;
}

// One code path: Upstash when configured, otherwise the in-memory store; only the adapter differs.
function createStore(): Store {
  const { UPSTASH_REDIS_REST_URL: url, UPSTASH_REDIS_REST_TOKEN: token } = env;
  const redis = url && token ? new Redis({ url, token }) : null;
  const timeoutMs = env.RATE_LIMIT_TIMEOUT_MS;
  const create = (policy: TokenBucketPolicy) =>
    redis ? createUpstashRateLimiter(policy, { redis, timeoutMs }) : createMemoryRateLimiter(policy);
  const limiters = Object.fromEntries(Object.entries(policies).map(([name, policy]) => [name, create(policy)])) as Limiters;
  const knownCredentials = redis
    ? createUpstashKnownCredentials({ redis, prefix: KNOWN_CREDENTIALS_PREFIX, timeoutMs })
    : createMemoryKnownCredentials();
  return { limiters, knownCredentials };
}
