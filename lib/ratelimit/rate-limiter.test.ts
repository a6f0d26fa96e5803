import { randomUUID } from "node:crypto";
import { Redis } from "@upstash/redis";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { createMemoryRateLimiter } from "@/lib/ratelimit/memory-rate-limiter";
import { policies } from "@/lib/ratelimit/policies";
import type { RateLimiter } from "@/lib/ratelimit/rate-limiter";
import type { TokenBucketPolicy } from "@/lib/ratelimit/token-bucket";
import { createUpstashRateLimiter } from "@/lib/ratelimit/upstash-rate-limiter";
import { startUpstashBridge } from "@/test/upstash-bridge";

// The contract both adapters must honour, run against each: the in-memory store and the
// Upstash client talking to the real Redis through the test bridge.
let bridge: Awaited<ReturnType<typeof startUpstashBridge>>;
beforeAll(async () => {
  bridge = await startUpstashBridge({ redisUrl: process.env.TEST_REDIS_URL });
});
afterAll(() => bridge?.close());

// A prefix per run keeps leftovers of earlier runs in the shared Redis out of the way.
const run = randomUUID();
const adapters: [string, (policy: TokenBucketPolicy) => RateLimiter][] = [
  ["memory", (policy) => createMemoryRateLimiter(policy)],
  [
    "upstash",
    (policy) =>
      createUpstashRateLimiter(
        { ...policy, prefix: `test:${run}:${policy.prefix}` },
        { redis: new Redis({ url: bridge.url, token: bridge.token }), timeoutMs: 2_000 },
      ),
  ],
];

afterEach(() => vi.useRealTimers());

describe.each(adapters)("%s rate limiter", (_name, create) => {
  // Both adapters read the time with Date.now() (@upstash/ratelimit too): with Date frozen no
  // refill lands between the requests of a test however slow the machine, so counts are exact.
  beforeEach(() => vi.useFakeTimers({ toFake: ["Date"] }));

  it("renterApi: 60 rapid requests pass with remaining counting down, the 61st is denied", async () => {
    const limiter = create(policies.renterApi);
    const decisions = [];
    for (let i = 0; i < 61; i++) decisions.push(await limiter.limit("203.0.113.7"));

    expect(decisions.slice(0, 60).every((d) => d.allowed && d.retryAfterSeconds === 0)).toBe(true);
    expect(decisions.slice(0, 60).map((d) => d.remaining)).toEqual(Array.from({ length: 60 }, (_, i) => 59 - i));
    const denied = decisions[60];
    // The next token comes one interval (1 s) after the bucket was first used.
    expect(denied).toMatchObject({
      allowed: false,
      limit: 60,
      remaining: 0,
      resetAt: Date.now() + 1_000,
      retryAfterSeconds: 1,
    });
    // Other keys have buckets of their own.
    expect((await limiter.limit("203.0.113.8")).allowed).toBe(true);
  });

  it("peek reports without spending", async () => {
    const limiter = create(policies.renterApi);
    expect(await limiter.peek("198.51.100.1")).toMatchObject({
      allowed: true,
      limit: 60,
      remaining: 60,
      retryAfterSeconds: 0,
    });
    expect((await limiter.limit("198.51.100.1")).remaining).toBe(59);
    for (let i = 0; i < 3; i++) expect((await limiter.peek("198.51.100.1")).remaining).toBe(59);
    expect((await limiter.limit("198.51.100.1")).remaining).toBe(58);
  });

  it("failedCodeLookup: 10 failures pass, the 11th is denied, and peek then refuses", async () => {
    const limiter = create(policies.failedCodeLookup);
    for (let i = 0; i < 10; i++) expect((await limiter.limit("2001:db8::1")).allowed, `failure ${i + 1}`).toBe(true);
    const eleventh = await limiter.limit("2001:db8::1");
    expect(eleventh).toMatchObject({ allowed: false, retryAfterSeconds: 6 });
    const gate = await limiter.peek("2001:db8::1");
    expect(gate).toMatchObject({ allowed: false, remaining: 0, retryAfterSeconds: 6 });
  });

  it("refund gives a reserved token back, never beyond a full bucket", async () => {
    const limiter = create(policies.failedCodeLookup);
    const key = `refund-${randomUUID()}`;
    await limiter.refund(key); // nothing was spent: the bucket stays as it is
    expect((await limiter.peek(key)).remaining).toBe(10);
    for (let i = 0; i < 10; i++) await limiter.limit(key);
    expect((await limiter.peek(key)).allowed).toBe(false);

    await limiter.refund(key);
    expect(await limiter.peek(key)).toMatchObject({ allowed: true, remaining: 1 });
    expect((await limiter.limit(key)).allowed).toBe(true);
    expect((await limiter.limit(key)).allowed).toBe(false);

    for (let i = 0; i < 15; i++) await limiter.refund(key);
    expect((await limiter.peek(key)).remaining).toBe(10);
    expect((await limiter.limit(key)).remaining).toBe(9);
  });

  it("ownerApi: 30 per key, then denied", async () => {
    const limiter = create(policies.ownerApi);
    for (let i = 0; i < 30; i++) expect((await limiter.limit("key-hash-1")).allowed).toBe(true);
    expect((await limiter.limit("key-hash-1")).allowed).toBe(false);
  });
});
