import { createHash, randomUUID } from "node:crypto";
import { Redis } from "@upstash/redis";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { credentialDigest, type KnownCredentials, rentalCodeDigest } from "@/lib/ratelimit/known-credentials";
import { createMemoryKnownCredentials } from "@/lib/ratelimit/memory-known-credentials";
import { createUpstashKnownCredentials } from "@/lib/ratelimit/upstash-known-credentials";
import { startUpstashBridge } from "@/test/upstash-bridge";

let bridge: Awaited<ReturnType<typeof startUpstashBridge>>;
beforeAll(async () => {
  bridge = await startUpstashBridge({ redisUrl: process.env.TEST_REDIS_URL });
});
afterAll(() => bridge?.close());
afterEach(() => vi.restoreAllMocks());

const run = randomUUID();
const adapters: [string, () => KnownCredentials][] = [
  ["memory", () => createMemoryKnownCredentials()],
  [
    "upstash",
    () =>
      createUpstashKnownCredentials({
        redis: new Redis({ url: bridge.url, token: bridge.token }),
        prefix: `test:${run}:known`,
        timeoutMs: 2_000,
      }),
  ],
];

describe.each(adapters)("%s known credentials", (_name, create) => {
  it("remembers a digest for its time, forgets it on request, and ignores a time that is not positive", async () => {
    const store = create();
    const [a, b, c] = [randomUUID(), randomUUID(), randomUUID()];
    expect(await store.has(a)).toBe(false);
    await store.remember(a, 60_000);
    await store.remember(b, 0);
    await store.remember(c, -5);
    expect([await store.has(a), await store.has(b), await store.has(c)]).toEqual([true, false, false]);
    await store.forget(a);
    expect(await store.has(a)).toBe(false);
  });
});

describe("memory known credentials", () => {
  it("expire on the clock and stay bounded (expired entries go first, then the oldest)", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      const store = createMemoryKnownCredentials({ maxEntries: 3 });
      await store.remember("short", 1_000);
      await store.remember("a", 60_000);
      await store.remember("b", 60_000);
      vi.setSystemTime(Date.now() + 1_000);
      expect(await store.has("short")).toBe(false);
      await store.remember("short", 1_000);
      vi.setSystemTime(Date.now() + 1_000);
      await store.remember("c", 60_000); // full: the expired entry makes room
      expect([await store.has("a"), await store.has("b"), await store.has("c")]).toEqual([true, true, true]);
      await store.remember("d", 60_000); // nothing expired: the oldest goes
      expect([await store.has("a"), await store.has("d")]).toEqual([false, true]);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("upstash known credentials", () => {
  it("expire in Redis, and a Redis that fails reads as 'unknown' (the budgets then fail closed)", async () => {
    const redis = new Redis({ url: bridge.url, token: bridge.token });
    const store = createUpstashKnownCredentials({ redis, prefix: `test:${run}:ttl`, timeoutMs: 2_000 });
    await store.remember("x", 90_000);
    const ttl = await redis.pttl(`test:${run}:ttl:x`);
    expect(ttl).toBeGreaterThan(80_000);
    expect(ttl).toBeLessThanOrEqual(90_000);

    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const broken = createUpstashKnownCredentials({
      redis: new Redis({ url: bridge.url, token: "wrong", retry: false }),
      prefix: `test:${run}:ttl`,
      timeoutMs: 2_000,
    });
    expect(await broken.has("x")).toBe(false);
    await broken.remember("y", 1_000);
    await broken.forget("x");
    expect(log).toHaveBeenCalledTimes(3);
    expect(log.mock.calls.flat().join(" ")).not.toMatch(/test:.*:ttl:x/);
  });
});

describe("credentialDigest", () => {
  it("is a keyed hash: stable, different per kind, and not the plain SHA-256 anyone could recompute", () => {
    const code = "3f9a2c1b";
    const digest = credentialDigest("rental-code", code);
    expect(digest).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(credentialDigest("rental-code", code)).toBe(digest);
    expect(credentialDigest("owner-key", code)).not.toBe(digest);
    expect(credentialDigest("rental-code", "3f9a2c1c")).not.toBe(digest);
    for (const plain of [code, `rental-code\0${code}`]) {
      expect(digest).not.toBe(createHash("sha256").update(plain).digest("base64url"));
    }
    expect(digest).not.toContain(code);
  });
});

describe("rentalCodeDigest", () => {
  it("is one digest for every accepted form of a code (its first 8 characters), and another for another code", () => {
    const id = "3f9a2c1b-77d0-4a43-9c6e-0b1d2e3f4a5b";
    const digest = rentalCodeDigest(id);
    expect(digest).toBe(credentialDigest("rental-code", "3f9a2c1b"));
    for (const form of ["3f9a2c1b", "3f9a2c1b77d0", "3F9A2C1B-77D0", id.toUpperCase(), id.replaceAll("-", "")]) {
      expect(rentalCodeDigest(form), form).toBe(digest);
    }
    expect(rentalCodeDigest("3f9a2c1c-77d0")).not.toBe(digest);
  });
});
