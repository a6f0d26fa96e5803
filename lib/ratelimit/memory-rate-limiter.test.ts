import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createMemoryRateLimiter } from "@/lib/ratelimit/memory-rate-limiter";
import { policies } from "@/lib/ratelimit/policies";

// Time is faked (Date only): refills are checked by moving the clock, not by sleeping.
const T0 = Date.UTC(2026, 10, 21, 12, 0, 0);
beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(T0);
});
afterEach(() => vi.useRealTimers());
const at = (ms: number) => vi.setSystemTime(T0 + ms);

describe("createMemoryRateLimiter", () => {
  it("renterApi: the 61st rapid request waits exactly one refill, then one more passes", async () => {
    const limiter = createMemoryRateLimiter(policies.renterApi);
    for (let i = 0; i < 60; i++) await limiter.limit("ip");
    const denied = await limiter.limit("ip");
    expect(denied).toMatchObject({ allowed: false, remaining: 0, resetAt: T0 + 1_000, retryAfterSeconds: 1 });

    at(999);
    expect((await limiter.limit("ip")).allowed).toBe(false);
    at(1_000);
    expect(await limiter.limit("ip")).toMatchObject({ allowed: true, remaining: 0 });
    expect((await limiter.limit("ip")).allowed).toBe(false);
  });

  it("refills at the sustained rate and never beyond the bucket", async () => {
    const limiter = createMemoryRateLimiter(policies.renterApi);
    for (let i = 0; i < 60; i++) await limiter.limit("ip");
    at(10_500);
    expect(await limiter.peek("ip")).toMatchObject({ allowed: true, remaining: 10 });
    at(3_600_000);
    expect(await limiter.peek("ip")).toMatchObject({ allowed: true, remaining: 60 });
    expect((await limiter.limit("ip")).remaining).toBe(59);
  });

  it("failedCodeLookup: an emptied bucket refuses for one 6 s step, then lets one more failure through", async () => {
    const limiter = createMemoryRateLimiter(policies.failedCodeLookup);
    for (let i = 0; i < 10; i++) await limiter.limit("ip");
    expect(await limiter.peek("ip")).toMatchObject({ allowed: false, retryAfterSeconds: 6 });
    at(4_200);
    expect(await limiter.peek("ip")).toMatchObject({ allowed: false, retryAfterSeconds: 2 });
    at(6_000);
    expect(await limiter.peek("ip")).toMatchObject({ allowed: true, remaining: 1 });
    expect((await limiter.limit("ip")).allowed).toBe(true);
    expect((await limiter.peek("ip")).allowed).toBe(false);
  });

  it("stays bounded: full buckets are dropped first, then the least recently used", async () => {
    const limiter = createMemoryRateLimiter(policies.failedCodeLookup, { maxEntries: 3 });
    const exhaust = async (key: string) => {
      for (let i = 0; i < 10; i++) await limiter.limit(key);
    };
    await exhaust("a");
    await exhaust("b");
    await limiter.limit("c");
    at(6_000); // c is full again; a and b have one token back
    await limiter.limit("d"); // makes room by dropping c only
    expect((await limiter.peek("a")).remaining).toBe(1);
    expect((await limiter.peek("b")).remaining).toBe(1);

    await exhaust("a"); // a is now the most recently used
    await limiter.limit("e"); // no full bucket left: b (least recently used) goes
    expect((await limiter.peek("b")).remaining).toBe(10);
    expect((await limiter.peek("a")).allowed).toBe(false);
  });
});
