import { randomUUID } from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import { knownCredentials, limiters, policies } from "@/lib/ratelimit/policies";

const perMinute = (p: { refillRate: number; intervalMs: number }) => (p.refillRate * 60_000) / p.intervalMs;

describe("policies", () => {
  it("match the documented limits: burst = bucket size, sustained rate per minute", () => {
    expect([policies.renterApi.maxTokens, perMinute(policies.renterApi)]).toEqual([60, 60]);
    expect([policies.failedCodeLookup.maxTokens, perMinute(policies.failedCodeLookup)]).toEqual([10, 10]);
    expect([policies.ownerApi.maxTokens, perMinute(policies.ownerApi)]).toEqual([30, 30]);
    expect([policies.checkout.maxTokens, perMinute(policies.checkout)]).toEqual([20, 20]);
    expect([policies.auth.maxTokens, perMinute(policies.auth)]).toEqual([10, 10]);
    expect([policies.ownerAuthFailure.maxTokens, perMinute(policies.ownerAuthFailure)]).toEqual([10, 10]);
    expect([policies.dashboardAction.maxTokens, perMinute(policies.dashboardAction)]).toEqual([30, 30]);
    // Webhook tests: 10 per 10 minutes per account; per listing 5 in a row, then one a minute.
    expect([policies.webhookTestAccount.maxTokens, perMinute(policies.webhookTestAccount) * 10]).toEqual([10, 10]);
    expect([policies.webhookTestAgent.maxTokens, perMinute(policies.webhookTestAgent)]).toEqual([5, 1]);
    // Failed /start codes on the chat bots: 5 an hour per chat user, 300 an hour per platform.
    expect([policies.chatStartFailure.maxTokens, perMinute(policies.chatStartFailure) * 60]).toEqual([5, 5]);
    expect([policies.chatStartFailurePlatform.maxTokens, perMinute(policies.chatStartFailurePlatform) * 60]).toEqual([300, 300]);
    // Every Retry-After the HTTP buckets give is at most 60 s (one refill step), as rateDecision
    // caps it. The bots' buckets answer in a chat sentence that names the minutes instead.
    const http = Object.values(policies).filter((p) => !p.prefix.startsWith("ars:rl:chat-"));
    for (const p of http) expect(p.intervalMs, p.prefix).toBeLessThanOrEqual(60_000);
    expect(new Set(Object.values(policies).map((p) => p.prefix)).size).toBe(Object.keys(policies).length);
  });
});

describe("failedCodeLookupGlobal", () => {
  it("is FAILED_CODE_LOOKUPS_GLOBAL_PER_MINUTE per minute across all clients (120 unless set)", async () => {
    expect(policies.failedCodeLookupGlobal.prefix).toBe("ars:rl:failed-code-lookup-global");
    // The unit suite raises it (vitest.config.ts) so test files do not trip each other.
    expect([policies.failedCodeLookupGlobal.maxTokens, perMinute(policies.failedCodeLookupGlobal)]).toEqual([60_000, 60_000]);
    vi.resetModules();
    vi.stubEnv("FAILED_CODE_LOOKUPS_GLOBAL_PER_MINUTE", "");
    try {
      const { policies: defaults } = await import("@/lib/ratelimit/policies");
      expect([defaults.failedCodeLookupGlobal.maxTokens, perMinute(defaults.failedCodeLookupGlobal)]).toEqual([120, 120]);
    } finally {
      vi.unstubAllEnvs();
      vi.resetModules();
    }
  });
});

describe("limiters", () => {
  it("hands out one set per process, even when the module is evaluated again", async () => {
    const first = limiters();
    expect(limiters()).toBe(first);
    vi.resetModules();
    const again = await import("@/lib/ratelimit/policies");
    expect(again.limiters()).toBe(first);
  });

  it("serves the configured adapter (Upstash when its env is set, memory otherwise)", async () => {
    const decision = await limiters().ownerApi.limit(`test:${randomUUID()}`);
    expect(decision).toMatchObject({ allowed: true, limit: 30, remaining: 29, retryAfterSeconds: 0 });
    const digest = `test-${randomUUID()}`;
    expect(await knownCredentials().has(digest)).toBe(false);
    await knownCredentials().remember(digest, 60_000);
    expect(await knownCredentials().has(digest)).toBe(true);
  });
});
