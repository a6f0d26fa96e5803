import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "@/lib/http/api-error";
import { limitAction, spendWebhookTest } from "@/lib/ratelimit/limit-action";
import { createMemoryRateLimiter } from "@/lib/ratelimit/memory-rate-limiter";
import { type Limiters, policies } from "@/lib/ratelimit/policies";

// The rule itself, on in-memory buckets and a clock that moves only when told; the actions'
// own tests (app/dashboard/**/actions.test.ts) check that each action calls it.
const fresh = () =>
  Object.fromEntries(Object.entries(policies).map(([name, policy]) => [name, createMemoryRateLimiter(policy)])) as Limiters;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
});
afterEach(() => vi.useRealTimers());

describe("limitAction", () => {
  it("lets 30 actions of an account through at once, refuses the 31st in words, and refills one every 2 s", async () => {
    const buckets = fresh();
    const account = randomUUID();
    for (let i = 0; i < 30; i++) expect(await limitAction(account, {}, buckets)).toBeNull();
    expect(await limitAction(account, {}, buckets)).toEqual({
      ok: false,
      message: "Too many changes in a short time (at most 30 a minute); retry in 2 seconds.",
      fieldErrors: {},
    });
    expect(await limitAction(randomUUID(), {}, buckets)).toBeNull(); // another account
    vi.setSystemTime(Date.now() + 2_000);
    expect(await limitAction(account, {}, buckets)).toBeNull();
  });

  it("webhook tests: 10 per account (then one a minute), 5 in a row per listing", async () => {
    const buckets = fresh();
    const account = randomUUID();
    const [a, b, c] = [randomUUID(), randomUUID(), randomUUID()];
    for (let i = 0; i < 5; i++) expect(await limitAction(account, { webhookTestOf: a }, buckets)).toBeNull();
    expect(await limitAction(account, { webhookTestOf: a }, buckets)).toMatchObject({
      ok: false,
      message: "Too many webhook tests of this listing (at most 5 in a row, then one a minute); retry in 60 seconds.",
    });
    // That refusal gave the account's token back: 5 more for other listings, then the account is done.
    for (let i = 0; i < 5; i++) expect(await limitAction(account, { webhookTestOf: b }, buckets)).toBeNull();
    expect(await limitAction(account, { webhookTestOf: c }, buckets)).toMatchObject({
      ok: false,
      message: "Too many webhook tests from this account (at most 10 every 10 minutes); retry in 60 seconds.",
    });
    vi.setSystemTime(Date.now() + 60_000);
    expect(await limitAction(account, { webhookTestOf: c }, buckets)).toBeNull();
    expect(await limitAction(account, { webhookTestOf: c }, buckets)).not.toBeNull();
  });

  it("another account naming the same listing spends its own tokens, not the listing owner's", async () => {
    const buckets = fresh();
    const agent = randomUUID();
    const [owner, stranger] = [randomUUID(), randomUUID()];
    for (let i = 0; i < 5; i++) await limitAction(stranger, { webhookTestOf: agent }, buckets);
    expect(await limitAction(owner, { webhookTestOf: agent }, buckets)).toBeNull();
  });
});

describe("spendWebhookTest", () => {
  it("throws the 429 with this limit's headers (for the owner API's connect)", async () => {
    const buckets = fresh();
    const account = randomUUID();
    const agent = randomUUID();
    for (let i = 0; i < 5; i++) await spendWebhookTest(account, agent, buckets);
    const error = await spendWebhookTest(account, agent, buckets).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 429, headers: { "RateLimit-Limit": "5", "Retry-After": "60" } });
  });
});
