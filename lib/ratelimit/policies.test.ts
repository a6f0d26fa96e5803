import { randomUUID } from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import { limiters, policies } from "@/lib/ratelimit/policies";

const perMinute = (p: { refillRate: number; intervalMs: number }) => (p.refillRate * 60_000) / p.intervalMs;

describe("policies", () => {
  it("match the documented limits: burst = bucket size, sustained rate per minute", () => {
    expect([policies.renterApi.maxTokens, perMinute(policies.renterApi)]).toEqual([60, 60]);
    expect([policies.failedCodeLookup.maxTokens, perMinute(policies.failedCodeLookup)]).toEqual([10, 10]);
    expect([policies.ownerApi.maxTokens, perMinute(policies.ownerApi)]).toEqual([30, 30]);
    expect([policies.checkout.maxTokens, perMinute(policies.checkout)]).toEqual([20, 20]);
    expect([policies.auth.maxTokens, perMinute(policies.auth)]).toEqual([10, 10]);
    expect(new Set(Object.values(policies).map((p) => p.prefix)).size).toBe(Object.keys(policies).length);
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
  });
});
