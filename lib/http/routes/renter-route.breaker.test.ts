import { randomBytes, randomUUID } from "node:crypto";
import { Redis } from "@upstash/redis";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { POST as CHAT } from "@/app/api/v1/chat/route";
import { GET as STATUS } from "@/app/api/v1/status/route";
import { limiters, policies } from "@/lib/ratelimit/policies";
import { createUpstashRateLimiter } from "@/lib/ratelimit/upstash-rate-limiter";
import { rememberRentalCode } from "@/lib/rentals/authenticate-rental";
import { renterRequest } from "@/test/api-requests";
import { makeAgent, makeRental, startWebhook } from "@/test/fixtures";

// The /v1 routes while the global breaker on failed code lookups is open, as a renter meets it:
// every form of a code in use passes, a wrong code is refused. The breaker is one bucket for the
// whole service, so each test swaps in a bucket of its own (5 tokens, on the real Redis) instead
// of emptying the one every other test file shares. The clock (Date) stands still: no refill.
const BREAKER_TOKENS = 5;
const redis = new Redis({ url: process.env.UPSTASH_REDIS_REST_URL!, token: process.env.UPSTASH_REDIS_REST_TOKEN! });

let hook: Awaited<ReturnType<typeof startWebhook>>;
let agentId: string;
beforeAll(async () => {
  hook = await startWebhook((_req, res) => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify("pong")));
  agentId = (await makeAgent({ webhook: { url: hook.url, token: randomBytes(24).toString("base64url") } })).id;
});
afterAll(() => hook?.close());
beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  const breaker = {
    ...policies.failedCodeLookupGlobal,
    prefix: `test:${randomUUID()}:breaker`,
    maxTokens: BREAKER_TOKENS,
    intervalMs: 60_000,
  };
  limiters().failedCodeLookupGlobal = createUpstashRateLimiter(breaker, { redis, timeoutMs: 2_000 });
});
afterEach(() => vi.useRealTimers());

async function openBreaker() {
  for (let i = 0; i < BREAKER_TOKENS; i++) await limiters().failedCodeLookupGlobal.limit("all");
}

// The forms docs/api.md promises: 8 characters, more of them, the full id with and without
// dashes, any case.
function forms(id: string): string[] {
  const hex = id.replaceAll("-", "");
  return [hex.slice(0, 8), hex.slice(0, 12), id, hex, id.toUpperCase(), `${hex.slice(0, 8).toUpperCase()}-${hex.slice(8, 12)}`];
}

const status = (code: string) => STATUS(renterRequest("status", { code }));
const chat = (code: string) => CHAT(renterRequest("chat", { code, body: { message: "ping" } }));

describe("/v1 with the failed-lookup breaker open", () => {
  it("a paid rental's code passes on /v1/status and /v1/chat in every accepted form; a wrong code gets the breaker's 429", async () => {
    const rental = await makeRental(agentId);
    await rememberRentalCode(rental); // what activatePaidRental does
    await openBreaker();
    for (const code of forms(rental.id)) {
      expect((await status(code)).status, `status ${code}`).toBe(200);
      const res = await chat(code);
      expect(res.status, `chat ${code}`).toBe(200);
      expect(await res.json()).toMatchObject({ response: "pong" });
    }
    for (const res of [await status(randomBytes(16).toString("hex")), await chat(randomBytes(4).toString("hex"))]) {
      expect(res.status).toBe(429);
      expect((await res.json()).error).toMatch(/^This service is refusing rental codes it has not seen in use/);
    }
  });

  it("a code first seen working in its full form passes in its 8-character form, and the other way round", async () => {
    const [long, short] = [await makeRental(agentId), await makeRental(agentId)];
    expect((await status(long.id.toUpperCase())).status).toBe(200);
    expect((await status(short.id.slice(0, 8))).status).toBe(200);
    await openBreaker();
    expect((await chat(long.id.slice(0, 8))).status).toBe(200);
    expect((await chat(short.id)).status).toBe(200);
    expect((await status(randomBytes(8).toString("hex"))).status).toBe(429);
  });
});
