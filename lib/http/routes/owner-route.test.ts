import { randomInt } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { POST as CONNECT } from "@/app/api/public/agents/[id]/connect/route";
import { GET as LIST } from "@/app/api/public/agents/route";
import { generateApiKey } from "@/lib/crypto/api-key";
import { db } from "@/lib/db";
import { ownerRequest } from "@/test/api-requests";
import { makeOwnerAgent, makeOwnerWithKey, segment, startWebhook, uniqueIp } from "@/test/fixtures";

// The owner surface's 30/min is per key, so made-up keys would each get a bucket of their own:
// attempts without a valid key also spend from a budget of 10 a minute per client IP. The clock
// (Date) stands still, so no refill lands inside a burst however slow the machine is.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

const list = (key: string | undefined, ip: string) => LIST(ownerRequest("agents", { key, ip }));

describe("owner API: failed attempts per client IP", () => {
  it("30 random well-formed keys from one IP at once: 10 are looked up (401), 20 refused by this limit", async () => {
    const lookups = vi.spyOn(db.apiKey, "findUnique");
    const ip = uniqueIp();
    const responses = await Promise.all(Array.from({ length: 30 }, () => list(generateApiKey().key, ip)));
    expect(lookups).toHaveBeenCalledTimes(10);
    expect(responses.filter((r) => r.status === 401)).toHaveLength(10);
    const limited = responses.filter((r) => r.status === 429);
    expect(limited).toHaveLength(20);
    for (const res of limited) {
      expect((await res.json()).error).toBe(
        "Too many requests without a valid API key from this address (at most 10 a minute); retry in 6 seconds.",
      );
      expect(res.headers.get("ratelimit-limit")).toBe("10");
      expect(res.headers.get("ratelimit-remaining")).toBe("0");
      expect(res.headers.get("retry-after")).toBe("6");
    }
    // Another address is unaffected.
    expect((await list(generateApiKey().key, uniqueIp())).status).toBe(401);
  });

  it("missing and malformed keys count too", async () => {
    const ip = uniqueIp();
    for (let i = 0; i < 5; i++) expect((await list(undefined, ip)).status).toBe(401);
    for (let i = 0; i < 5; i++) expect((await list("rck_nonsense", ip)).status).toBe(401);
    expect((await list(generateApiKey().key, ip)).status).toBe(429);
  });

  it("a valid key keeps its own 30/min from an address that spent its failed attempts", async () => {
    const { apiKey } = await makeOwnerWithKey();
    expect((await list(apiKey, uniqueIp())).status).toBe(200); // used once: known
    const ip = uniqueIp();
    for (let i = 0; i < 10; i++) await list(generateApiKey().key, ip);
    for (let i = 1; i < 30; i++) expect((await list(apiKey, ip)).status, `request ${i + 1}`).toBe(200);
    const res = await list(apiKey, ip);
    expect(res.status).toBe(429);
    expect((await res.json()).error).toMatch(/^Too many requests; retry in/);
    expect(res.headers.get("ratelimit-limit")).toBe("30");
  });

  it("a revoked key is forgotten and charged like a made-up one", async () => {
    const { accountId, apiKey } = await makeOwnerWithKey();
    const ip = uniqueIp();
    expect((await list(apiKey, ip)).status).toBe(200);
    await db.apiKey.updateMany({ where: { accountId }, data: { revokedAt: new Date() } });
    for (let i = 0; i < 10; i++) expect((await list(apiKey, ip)).status, `attempt ${i + 1}`).toBe(401);
    expect((await list(apiKey, ip)).status).toBe(429);
  });

  it("an IPv6 /64 is one client", async () => {
    const prefix = uniqueIp().split("::")[0];
    const address = () => `${prefix}:${randomInt(1, 0x10000).toString(16)}::${randomInt(1, 0x10000).toString(16)}`;
    for (let i = 0; i < 10; i++) expect((await list(generateApiKey().key, address())).status).toBe(401);
    expect((await list(generateApiKey().key, address())).status).toBe(429);
  });
});

describe("POST /public/agents/{id}/connect: the webhook-test budgets of the dashboard apply", () => {
  it("the 6th test of one listing in a row is a 429 in words, and the webhook is not called", async () => {
    const hook = await startWebhook((_req, res) => res.writeHead(200).end("ok"));
    try {
      const { accountId, apiKey } = await makeOwnerWithKey();
      const agent = await makeOwnerAgent(accountId);
      const connect = () =>
        CONNECT(
          ownerRequest(`agents/${agent.id}/connect`, {
            key: apiKey,
            body: { webhookUrl: hook.url, webhookToken: "t".repeat(40) },
          }),
          segment(agent.id),
        );
      for (let i = 0; i < 5; i++) expect((await connect()).status).toBe(200);
      const res = await connect();
      expect(res.status).toBe(429);
      expect((await res.json()).error).toBe(
        "Too many webhook tests of this listing (at most 5 in a row, then one a minute); retry in 60 seconds.",
      );
      expect(res.headers.get("ratelimit-limit")).toBe("5");
      expect(res.headers.get("retry-after")).toBe("60");
      expect(hook.received).toHaveLength(5);
    } finally {
      await hook.close();
    }
  });
});
