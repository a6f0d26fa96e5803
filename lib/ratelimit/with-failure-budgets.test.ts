import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "@/lib/http/api-error";
import { createMemoryKnownCredentials } from "@/lib/ratelimit/memory-known-credentials";
import { createMemoryRateLimiter } from "@/lib/ratelimit/memory-rate-limiter";
import { type Attempt, type FailureBudget, withFailureBudgets } from "@/lib/ratelimit/with-failure-budgets";

// Many requests presenting one credential at once, on in-memory buckets and a clock that stands
// still (no token comes back by itself). Each check waits until the test lets them all finish,
// so every request is in flight together whatever the machine's speed.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
});
afterEach(() => vi.useRealTimers());

function setup(tokens: number) {
  const limiter = createMemoryRateLimiter({ prefix: "test", maxTokens: tokens, refillRate: 1, intervalMs: 60_000 });
  const budget: FailureBudget = { limiter, key: "all", refused: () => new ApiError(429, "too many guesses") };
  const known = createMemoryKnownCredentials();
  let checks = 0;
  let finish!: () => void;
  const gate = new Promise<void>((resolve) => (finish = resolve));
  const use = (digest: string, matches: boolean) =>
    withFailureBudgets({
      digest,
      known,
      budgets: [budget],
      attempt: async (): Promise<Attempt<string>> => {
        checks++;
        await gate;
        return matches ? { ok: true, value: "rental", rememberForMs: 60_000 } : { ok: false, error: new ApiError(404, "no such rental") };
      },
    }).then(
      () => 200,
      (error: ApiError) => error.status,
    );
  return { use, finish, checks: () => checks, remaining: async () => (await limiter.peek("all")).remaining };
}

describe("withFailureBudgets, one credential presented many times at once", () => {
  it("300 first uses of a valid credential with 5 tokens all pass: the first checks, the others wait for its match", async () => {
    const { use, finish, checks, remaining } = setup(5);
    const digest = randomUUID();
    const answers = Array.from({ length: 300 }, () => use(digest, true));
    await vi.waitFor(() => expect(checks()).toBe(1));
    finish();
    expect(new Set(await Promise.all(answers))).toEqual(new Set([200]));
    expect(checks()).toBe(300); // each then checks as a known credential (the lookup is cached)
    expect(await remaining()).toBe(5);
  });

  it("a wrong credential sent 20 times at once is still charged each time: 5 checks, 15 answers 429", async () => {
    const { use, finish, checks, remaining } = setup(5);
    const digest = randomUUID();
    const answers = Array.from({ length: 20 }, () => use(digest, false));
    finish();
    const statuses = await Promise.all(answers);
    expect(statuses.filter((s) => s === 404)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(15);
    expect(checks()).toBe(5);
    expect(await remaining()).toBe(0);
  });

  it("different credentials do not wait for each other: 20 different guesses at once spend their own tokens", async () => {
    const { use, finish, checks } = setup(5);
    const answers = Array.from({ length: 20 }, () => use(randomUUID(), true));
    await vi.waitFor(() => expect(checks()).toBe(5));
    finish();
    const statuses = await Promise.all(answers);
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(15);
  });
});
