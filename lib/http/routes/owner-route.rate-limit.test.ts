// The owner surface shares one 30/min bucket per key across all its endpoints.
import { afterEach, describe, expect, it, vi } from "vitest";
import { POST as CONNECT } from "@/app/api/public/agents/[id]/connect/route";
import { DELETE, GET as GET_AGENT, PATCH } from "@/app/api/public/agents/[id]/route";
import { POST as CREATE, GET as LIST } from "@/app/api/public/agents/route";
import { GET as STATS } from "@/app/api/public/stats/route";
import { db } from "@/lib/db";
import { ownerRequest } from "@/test/api-requests";
import { makeOwnerAgent, makeOwnerWithKey, segment } from "@/test/fixtures";

// Token buckets refill on the clock, and @upstash/ratelimit reads it with Date.now(): tests that
// count a bucket down freeze Date (timers stay real), so no refill can land inside their burst
// however slow the machine, and every count and Retry-After is exact.
const freezeClock = () => vi.useFakeTimers({ toFake: ["Date"] });
afterEach(() => vi.useRealTimers());

describe("owner API rate limit", () => {
  it("429 with Retry-After on every endpoint once a key has spent 30 requests, before any work is done", async () => {
    freezeClock();
    const { accountId, apiKey: key } = await makeOwnerWithKey();
    const agent = await makeOwnerAgent(accountId);
    const id = agent.id;
    // 30 requests spread over the endpoints use up the key's budget.
    for (let i = 0; i < 15; i++) {
      expect((await LIST(ownerRequest("agents", { key }))).status).toBe(200);
      expect((await STATS(ownerRequest("stats", { key }))).status).toBe(200);
    }
    const limited = [
      LIST(ownerRequest("agents", { key })),
      CREATE(
        ownerRequest("agents", {
          key,
          body: { name: "Too Many", description: "x", category: "other", channels: ["API"], pricePerHour: 1 },
        }),
      ),
      GET_AGENT(ownerRequest(`agents/${id}`, { key }), segment(id)),
      PATCH(ownerRequest(`agents/${id}`, { key, method: "PATCH", body: { name: "Renamed" } }), segment(id)),
      CONNECT(
        ownerRequest(`agents/${id}/connect`, {
          key,
          body: { webhookUrl: "http://127.0.0.1:1/", webhookToken: "t".repeat(32) },
        }),
        segment(id),
      ),
      DELETE(ownerRequest(`agents/${id}`, { key, method: "DELETE" }), segment(id)),
      STATS(ownerRequest("stats", { key })),
    ];
    for (const res of await Promise.all(limited)) {
      expect(res.status).toBe(429);
      // One token every 2 s, and the clock stands still.
      expect(res.headers.get("retry-after")).toBe("2");
      expect((await res.json()).error).toBe("Too many requests; retry in 2 seconds.");
    }
    const row = await db.agent.findUniqueOrThrow({ where: { id } });
    expect([row.name, row.webhookUrlCipher]).toEqual(["Owner Agent", null]);
    expect(await db.agent.count({ where: { ownerId: accountId } })).toBe(1);
  });
});
