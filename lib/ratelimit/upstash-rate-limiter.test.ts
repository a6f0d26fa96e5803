import { randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";
import { createServer, type Server, type Socket } from "node:net";
import { Redis } from "@upstash/redis";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { policies } from "@/lib/ratelimit/policies";
import { createUpstashRateLimiter } from "@/lib/ratelimit/upstash-rate-limiter";
import { startUpstashBridge } from "@/test/upstash-bridge";

let bridge: Awaited<ReturnType<typeof startUpstashBridge>>;
// Accepts connections and never answers: a Redis that hangs.
let silent: Server;
const sockets = new Set<Socket>();

beforeAll(async () => {
  bridge = await startUpstashBridge({ redisUrl: process.env.TEST_REDIS_URL });
  silent = createServer((socket) => sockets.add(socket));
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
});
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => silent.close(resolve));
  await bridge.close();
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

const run = randomUUID();
const IP = "203.0.113.99";
const limiterAt = (url: string, token: string, timeoutMs = 2_000, policy = policies.renterApi) =>
  createUpstashRateLimiter(
    { ...policy, prefix: `test:${run}:${policy.prefix}` },
    { redis: new Redis({ url, token, retry: false }), timeoutMs },
  );

describe("createUpstashRateLimiter fails closed", () => {
  it("denies when Redis does not answer within the timeout, for limit and peek", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const limiter = limiterAt(`http://127.0.0.1:${(silent.address() as AddressInfo).port}`, "any", 100);
    // The server never answers, so only the timeout can have ended these calls (no bound on
    // the time taken: a loaded machine is slow).
    const [limited, peeked] = await Promise.all([limiter.limit(IP), limiter.peek(IP)]);
    for (const d of [limited, peeked]) expect(d).toMatchObject({ allowed: false, remaining: 0, retryAfterSeconds: 1 });
    expect(log).toHaveBeenCalledTimes(2);
    expect(log.mock.calls.flat().join(" ")).toMatch(/timed out/);
    expect(log.mock.calls.flat().join(" ")).not.toContain(IP);
  });

  it("denies when the request fails: Redis refuses the command, or nothing listens", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const refused = limiterAt(bridge.url, "wrong-token");
    expect(await refused.limit(IP)).toMatchObject({ allowed: false, retryAfterSeconds: 1 });
    expect(await refused.peek(IP)).toMatchObject({ allowed: false, retryAfterSeconds: 1 });

    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    expect(await limiterAt(`http://127.0.0.1:${port}`, "any").limit(IP)).toMatchObject({
      allowed: false,
      retryAfterSeconds: 1,
    });

    expect(log).toHaveBeenCalledTimes(3);
    // Upstash's error text quotes the command, key included: it must not reach the log.
    expect(log.mock.calls.flat().join(" ")).not.toContain(IP);
  });
});

describe("createUpstashRateLimiter refund", () => {
  it("touches no bucket that is not stored (a full one), so it never leaves a key without an expiry", async () => {
    const redis = new Redis({ url: bridge.url, token: bridge.token });
    const policy = { ...policies.failedCodeLookup, prefix: `test:${run}:refund` };
    const limiter = createUpstashRateLimiter(policy, { redis, timeoutMs: 2_000 });
    await limiter.refund(IP);
    expect(await redis.exists(`${policy.prefix}:${IP}`)).toBe(0);
    await limiter.limit(IP);
    await limiter.refund(IP);
    expect(await redis.hget(`${policy.prefix}:${IP}`, "tokens")).toBe(10);
    expect(await redis.pttl(`${policy.prefix}:${IP}`)).toBeGreaterThan(0);
  });

  it("a refund that fails is logged without the key, and the token stays spent", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    await limiterAt(bridge.url, "wrong-token").refund(IP);
    await limiterAt(`http://127.0.0.1:${(silent.address() as AddressInfo).port}`, "any", 100).refund(IP);
    expect(log).toHaveBeenCalledTimes(2);
    expect(log.mock.calls.flat().join(" ")).toMatch(/timed out; the token stays spent/);
    expect(log.mock.calls.flat().join(" ")).not.toContain(IP);
  });
});

describe("createUpstashRateLimiter peek", () => {
  it("counts the refills since the last spend, as the next limit() will", async () => {
    const policy = { prefix: "fast", maxTokens: 2, refillRate: 1, intervalMs: 100 };
    const limiter = limiterAt(bridge.url, bridge.token, 2_000, policy);
    // The limiter's clock is Date.now() (the library's too): frozen, then moved by hand.
    vi.useFakeTimers({ toFake: ["Date"] });
    const t0 = Date.now();
    await limiter.limit(IP);
    await limiter.limit(IP);
    expect((await limiter.peek(IP)).allowed).toBe(false);
    vi.setSystemTime(t0 + 150); // one refill (every 100 ms) since the last spend
    const peeked = await limiter.peek(IP);
    expect(peeked).toMatchObject({ allowed: true, remaining: 1 });
    expect((await limiter.limit(IP)).remaining).toBe(0);
  });
});
