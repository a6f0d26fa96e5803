import { randomBytes, randomUUID } from "node:crypto";
import { Redis } from "@upstash/redis";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { ApiError } from "@/lib/http/api-error";
import { clientKey } from "@/lib/http/client-ip";
import { policies } from "@/lib/ratelimit/policies";
import type { TokenBucketPolicy } from "@/lib/ratelimit/token-bucket";
import { createUpstashKnownCredentials } from "@/lib/ratelimit/upstash-known-credentials";
import { createUpstashRateLimiter } from "@/lib/ratelimit/upstash-rate-limiter";
import { authenticateRental, type RentalAuthDeps, rememberRentalCode } from "@/lib/rentals/authenticate-rental";
import { findRentalByCode } from "@/lib/rentals/find-rental-by-code";
import { renterRequest } from "@/test/api-requests";
import { makeAgent, makeRental, uniqueIp } from "@/test/fixtures";

// The failed-lookup budgets against the real Redis (the Upstash client, as in production) and
// the real lookup, counted. Each test gets buckets of its own (a fresh prefix), and the clock
// (Date) stands still unless a test moves it, so no refill depends on the machine's speed.
let agent: Awaited<ReturnType<typeof makeAgent>>;
beforeAll(async () => {
  agent = await makeAgent();
});
beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

function budgets(global: Partial<TokenBucketPolicy> = {}) {
  const prefix = `test:${randomUUID()}`;
  const redis = new Redis({ url: process.env.UPSTASH_REDIS_REST_URL!, token: process.env.UPSTASH_REDIS_REST_TOKEN! });
  const limiter = (policy: TokenBucketPolicy, name: string) =>
    createUpstashRateLimiter({ ...policy, prefix: `${prefix}:${name}` }, { redis, timeoutMs: 2_000 });
  let lookups = 0;
  const deps: RentalAuthDeps = {
    lookup: async (hex) => {
      lookups++;
      return findRentalByCode(hex);
    },
    failedLookups: limiter(policies.failedCodeLookup, "ip"),
    failedLookupsGlobal: limiter({ ...policies.failedCodeLookupGlobal, ...global }, "global"),
    known: createUpstashKnownCredentials({ redis, prefix: `${prefix}:known`, timeoutMs: 2_000 }),
  };
  return { deps, lookups: () => lookups };
}

// A well-formed code that matches no rental (random: rentals of other tests never share it).
const wrongCode = () => randomBytes(8).toString("hex");

async function outcome(promise: Promise<unknown>): Promise<ApiError | "ok"> {
  try {
    await promise;
    return "ok";
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
}

describe("authenticateRental: failed lookups are paid for before the lookup", () => {
  it("51 parallel wrong codes from one client reach the database 10 times; the rest get this limit's 429", async () => {
    const { deps, lookups } = budgets();
    const ip = uniqueIp();
    const results = await Promise.all(
      Array.from({ length: 51 }, () => outcome(authenticateRental(renterRequest("status", { code: wrongCode(), ip }), 404, deps))),
    );
    expect(lookups()).toBe(10);
    const errors = results as ApiError[];
    expect(errors.filter((e) => e.status === 404)).toHaveLength(10);
    const limited = errors.filter((e) => e.status === 429);
    expect(limited).toHaveLength(41);
    for (const e of limited) {
      expect(e.message).toMatch(/^Too many wrong rental codes from this address \(at most 10 a minute\); retry in [1-6] seconds?\.$/);
      expect(e.headers).toMatchObject({
        "RateLimit-Limit": "10",
        "RateLimit-Remaining": "0",
        "Retry-After": expect.stringMatching(/^[1-6]$/),
      });
    }
    // The next token comes back after one 6 s step, for one more lookup.
    vi.setSystemTime(Date.now() + 6_000);
    expect(await outcome(authenticateRental(renterRequest("status", { code: wrongCode(), ip }), 404, deps))).toMatchObject({ status: 404 });
    expect(lookups()).toBe(11);
  });

  it("a code that matches gets its token back at once, and is not charged again once known", async () => {
    const { deps, lookups } = budgets();
    const ip = uniqueIp();
    const rental = await makeRental(agent.id);
    for (let i = 0; i < 15; i++) {
      expect(await authenticateRental(renterRequest("status", { code: rental.id.slice(0, 8), ip }), 404, deps)).toMatchObject({
        id: rental.id,
      });
    }
    expect(lookups()).toBe(15);
    expect(await deps.failedLookups.peek(clientKey(ip))).toMatchObject({ remaining: 10 });
    expect(await deps.failedLookupsGlobal.peek("all")).toMatchObject({
      remaining: policies.failedCodeLookupGlobal.maxTokens,
    });
  });

  it("a known code keeps working from an address that spent its budget on wrong codes, in parallel too", async () => {
    const { deps } = budgets();
    const rental = await makeRental(agent.id);
    const code = rental.id.slice(0, 8);
    await authenticateRental(renterRequest("status", { code }), 404, deps); // used once: now known

    const ip = uniqueIp();
    for (let i = 0; i < 10; i++) await outcome(authenticateRental(renterRequest("status", { code: wrongCode(), ip }), 404, deps));
    const results = await Promise.all(
      Array.from({ length: 20 }, () => outcome(authenticateRental(renterRequest("status", { code, ip }), 404, deps))),
    );
    expect(results.every((r) => r === "ok")).toBe(true);

    // A code never used before is a guess like any other until it has matched once: from this
    // address it waits for the refill (docs/api.md).
    const fresh = await makeRental(agent.id);
    expect(await outcome(authenticateRental(renterRequest("status", { code: fresh.id.slice(0, 8), ip }), 404, deps))).toMatchObject({
      status: 429,
    });
    expect(await outcome(authenticateRental(renterRequest("status", { code: fresh.id.slice(0, 8) }), 404, deps))).toBe("ok");
  });

  it("a known code that stops matching is forgotten and charged like any failed lookup", async () => {
    const { deps, lookups } = budgets();
    const ip = uniqueIp();
    const rental = await makeRental(agent.id);
    const code = rental.id.slice(0, 8);
    await authenticateRental(renterRequest("status", { code, ip }), 404, deps);
    await db.rental.delete({ where: { id: rental.id } });
    expect(await outcome(authenticateRental(renterRequest("status", { code, ip }), 404, deps))).toMatchObject({
      status: 404,
    });
    expect(await deps.failedLookups.peek(clientKey(ip))).toMatchObject({ remaining: 9 });
    expect(lookups()).toBe(2);
  });

  it("a lookup that breaks (the database is down) is no failed guess: the tokens come back", async () => {
    const { deps } = budgets();
    const ip = uniqueIp();
    deps.lookup = async () => {
      throw new Error("connection refused");
    };
    await expect(authenticateRental(renterRequest("status", { code: wrongCode(), ip }), 401, deps)).rejects.toThrow("connection refused");
    expect(await deps.failedLookups.peek(clientKey(ip))).toMatchObject({ remaining: 10 });
  });

  it("an ambiguous code keeps its token (it identified no rental)", async () => {
    const { deps } = budgets();
    const ip = uniqueIp();
    const spy = vi.fn(async () => ({ kind: "ambiguous" as const }));
    deps.lookup = spy;
    expect(await outcome(authenticateRental(renterRequest("status", { code: wrongCode(), ip }), 404, deps))).toMatchObject({ status: 400 });
    expect(await deps.failedLookups.peek(clientKey(ip))).toMatchObject({ remaining: 9 });
  });

  it("missing and malformed codes are refused before any budget or lookup", async () => {
    const { deps, lookups } = budgets();
    const ip = uniqueIp();
    for (const code of [undefined, "short", "zzzzzzzz"]) {
      expect(await outcome(authenticateRental(renterRequest("status", { code, ip }), 404, deps))).toMatchObject({
        status: 401,
      });
    }
    expect(lookups()).toBe(0);
    expect(await deps.failedLookups.peek(clientKey(ip))).toMatchObject({ remaining: 10 });
  });
});

describe("authenticateRental: the global breaker", () => {
  // A ceiling of 5 failed lookups per minute across all clients, for the test.
  const small = { maxTokens: 5, refillRate: 1, intervalMs: 60_000 };

  it("trips on failed lookups from many addresses; known codes keep working, unknown ones are refused unlooked-up; it closes after its window", async () => {
    const { deps, lookups } = budgets(small);
    const known = await makeRental(agent.id);
    const unseen = await makeRental(agent.id);
    await authenticateRental(renterRequest("status", { code: known.id.slice(0, 8) }), 404, deps);

    // Five wrong codes, each from an address of its own: no per-IP budget is near empty.
    for (let i = 0; i < 5; i++) {
      expect(await outcome(authenticateRental(renterRequest("status", { code: wrongCode() }), 404, deps))).toMatchObject({ status: 404 });
    }
    expect(lookups()).toBe(6);

    // Tripped: a wrong code from a fresh address, and even a real code never used yet, are
    // refused without a lookup; the address keeps its own token.
    const ip = uniqueIp();
    for (const code of [wrongCode(), unseen.id.slice(0, 8)]) {
      const refused = await outcome(authenticateRental(renterRequest("status", { code, ip }), 404, deps));
      expect(refused).toMatchObject({ status: 429 });
      const error = refused as ApiError;
      expect(error.message).toMatch(
        /^This service is refusing rental codes it has not seen in use, because too many wrong codes are being tried across all clients \(a guessing attack\); codes in use keep working; retry in \d+ seconds?\.$/,
      );
      expect(error.headers).toMatchObject({
        "RateLimit-Limit": "5",
        "RateLimit-Remaining": "0",
        "Retry-After": expect.stringMatching(/^\d+$/),
      });
    }
    expect(lookups()).toBe(6);
    expect(await deps.failedLookups.peek(clientKey(ip))).toMatchObject({ remaining: 10 });

    // A code in use works, from anywhere.
    expect(await authenticateRental(renterRequest("status", { code: known.id.slice(0, 8), ip: uniqueIp() }), 404, deps)).toMatchObject({
      id: known.id,
    });
    expect(lookups()).toBe(7);

    // After its window a token is back: the next unknown code is looked up again (and a real one
    // matches and gives its token back).
    vi.setSystemTime(Date.now() + 60_000);
    expect(await authenticateRental(renterRequest("status", { code: unseen.id.slice(0, 8), ip }), 404, deps)).toMatchObject({
      id: unseen.id,
    });
    expect(await outcome(authenticateRental(renterRequest("status", { code: wrongCode(), ip }), 404, deps))).toMatchObject({ status: 404 });
    expect(lookups()).toBe(9);
    expect(await outcome(authenticateRental(renterRequest("status", { code: wrongCode(), ip }), 404, deps))).toMatchObject({ status: 429 });
  });

  it("a rental remembered at activation passes while the breaker is open, on its very first use", async () => {
    const { deps, lookups } = budgets(small);
    const paid = await makeRental(agent.id);
    await rememberRentalCode(paid, deps.known); // what activatePaidRental does
    for (let i = 0; i < 5; i++) await outcome(authenticateRental(renterRequest("status", { code: wrongCode() }), 404, deps));
    expect(await outcome(authenticateRental(renterRequest("status", { code: wrongCode() }), 404, deps))).toMatchObject({
      status: 429,
    });
    const before = lookups();
    expect(await authenticateRental(renterRequest("status", { code: paid.id.slice(0, 8) }), 404, deps)).toMatchObject({
      id: paid.id,
    });
    expect(lookups()).toBe(before + 1);
  });

  it("lets every accepted form of a remembered code through; a wrong tail after its 8 characters is charged, and the code stays remembered", async () => {
    const { deps, lookups } = budgets(small);
    const rental = await makeRental(agent.id);
    await rememberRentalCode(rental, deps.known);
    for (let i = 0; i < small.maxTokens; i++) await deps.failedLookupsGlobal.limit("all");
    const hex = rental.id.replaceAll("-", "");
    for (const code of [
      hex.slice(0, 8),
      hex.slice(0, 12),
      rental.id,
      rental.id.toUpperCase(),
      hex,
      `${hex.slice(0, 8)}-${hex.slice(8, 16)}`,
    ]) {
      expect(await authenticateRental(renterRequest("status", { code }), 404, deps), code).toMatchObject({ id: rental.id });
    }
    expect(await outcome(authenticateRental(renterRequest("status", { code: wrongCode() }), 404, deps))).toMatchObject({ status: 429 });

    // The right 8 characters with a wrong tail: looked up (no budget is asked first), matches
    // nothing, and is charged to its address like any failed lookup; the code keeps working.
    const ip = uniqueIp();
    const wrongTail = `${hex.slice(0, 11)}${hex[11] === "0" ? "1" : "0"}`;
    const before = lookups();
    expect(await outcome(authenticateRental(renterRequest("status", { code: wrongTail, ip }), 404, deps))).toMatchObject({ status: 404 });
    expect(lookups()).toBe(before + 1);
    expect(await deps.failedLookups.peek(clientKey(ip))).toMatchObject({ remaining: 9 });
    expect(await authenticateRental(renterRequest("status", { code: hex.slice(0, 8), ip }), 404, deps)).toMatchObject({ id: rental.id });
  });

  it("a code first used in its full form is remembered for its 8-character form too", async () => {
    const { deps } = budgets(small);
    const rental = await makeRental(agent.id);
    expect(await authenticateRental(renterRequest("status", { code: rental.id.toUpperCase() }), 404, deps)).toMatchObject({
      id: rental.id,
    });
    for (let i = 0; i < small.maxTokens; i++) await deps.failedLookupsGlobal.limit("all");
    expect(await authenticateRental(renterRequest("status", { code: rental.id.slice(0, 8) }), 404, deps)).toMatchObject({ id: rental.id });
  });

  it("when the address's own budget is empty, that is the answer, and the breaker keeps its token", async () => {
    const { deps } = budgets(small);
    const ip = uniqueIp();
    const drained = budgets(); // an empty per-IP bucket for this address only
    for (let i = 0; i < 10; i++) await drained.deps.failedLookups.limit(clientKey(ip));
    deps.failedLookups = drained.deps.failedLookups;
    const refused = await outcome(authenticateRental(renterRequest("status", { code: wrongCode(), ip }), 404, deps));
    expect(refused).toMatchObject({
      status: 429,
      message: expect.stringMatching(/^Too many wrong rental codes from this address/),
    });
    expect(await deps.failedLookupsGlobal.peek("all")).toMatchObject({ remaining: 5 });
  });
});
