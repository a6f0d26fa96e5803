// Checkout against a real chain (anvil) and the real database: quote → pay (permit or approve) →
// confirm, what a confirm refuses (changing nothing), quote refusals and the checkout HTTP surface.
// Settlement (release sweep, event reader, crons) is in payments-settlement.test.ts.
import { randomBytes, randomUUID } from "node:crypto";
import { toHex } from "viem";
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from "vitest";
import { POST as confirmPost } from "@/app/api/checkout/confirm/route";
import { POST as quotePost } from "@/app/api/checkout/quote/route";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { uniqueIp } from "@/test/fixtures";
import { checkoutRequest, makePayableAgent, newAddress, type Payments, startPayments } from "./payments-harness";

let p: Payments;

beforeAll(async () => {
  p = await startPayments();
});
afterAll(() => p?.stop());

const quote = (body: unknown, ip = uniqueIp()) => quotePost(checkoutRequest("quote", body, ip));
const confirm = (body: unknown, ip = uniqueIp()) => confirmPost(checkoutRequest("confirm", body, ip));

/** A quoted, unpaid rental (hour, 2 USDC) for a fresh renter. */

describe("quote refusals", () => {
  const body = (agentId: string, overrides: Record<string, string> = {}) => ({
    agentId,
    durationType: "hour",
    channel: "API",
    renter: newAddress(),
    ...overrides,
  });

  it.each([
    ["offline", { offline: true }, {}, /not available for rent/],
    ["without a webhook", { webhook: false }, {}, /not available for rent/],
    ["without a price for the duration", { listing: { pricePerMonth: null } }, { durationType: "month" }, /cannot be rented per month/],
    ["on a channel it does not support", { listing: { channels: ["API", "Telegram"] } }, { channel: "Slack" }, /does not support Slack/],
    [
      "on a channel whose bot this service does not run",
      { listing: { channels: ["API", "Slack"] } },
      { channel: "Slack" },
      /does not run a Slack bot/,
    ],
    ["whose owner has no payout wallet", { wallet: false }, {}, /no payout wallet/],
  ] as const)("409 for an agent %s, storing no rental", async (_case, agentOptions, overrides, reason) => {
    const { agent } = await makePayableAgent(agentOptions as Parameters<typeof makePayableAgent>[0]);
    const res = await quote(body(agent.id, overrides));
    expect(res.status).toBe(409);
    expect((await res.json()).error).toMatch(reason);
    expect(await db.rental.count({ where: { agentId: agent.id } })).toBe(0);
  });

  it("404 for an unknown agent", async () => {
    const res = await quote(body(randomUUID()));
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: "No such agent." });
  });

  it("503 when payments are not configured (no CHAIN_* settings), for quote and confirm", async () => {
    const { agent } = await makePayableAgent();
    const saved = { ...env };
    try {
      Object.assign(env, { CHAIN_ID: undefined, ESCROW_ADDRESS: undefined });
      for (const res of [await quote(body(agent.id)), await confirm({ txHash: toHex(randomBytes(32)) })]) {
        expect(res.status).toBe(503);
        expect((await res.json()).error).toMatch(/Payments are not configured/);
      }
    } finally {
      Object.assign(env, saved);
    }
    expect(await db.rental.count({ where: { agentId: agent.id } })).toBe(0);
    expect((await quote(body(agent.id))).status).toBe(201);
  });
});

describe("checkout HTTP surface", () => {
  it("400s that name the field", async () => {
    const { agent } = await makePayableAgent();
    const valid = { agentId: agent.id, durationType: "hour", channel: "API", renter: newAddress() };
    const cases: [unknown, RegExp][] = [
      [{ ...valid, agentId: "agent-1" }, /^agentId: must be an agent id/],
      [{ ...valid, durationType: "week" }, /^durationType: /],
      [{ ...valid, channel: "Email" }, /^channel: /],
      [{ ...valid, renter: "0x1234" }, /^renter: must be the renter's 0x wallet address/],
      [{ ...valid, renter: undefined }, /^renter: /],
      [{ ...valid, price: 0 }, /price/],
    ];
    for (const [bad, message] of cases) {
      const res = await quote(bad);
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect((await res.json()).error).toMatch(message);
    }
    const notJson = await quotePost(checkoutRequest("quote", null, uniqueIp(), { rawBody: "{agentId" }));
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toEqual({ error: "Request body is not valid JSON." });
    const wrongType = await quotePost(checkoutRequest("quote", valid, uniqueIp(), { contentType: "text/plain" }));
    expect(wrongType.status).toBe(400);
    expect(await db.rental.count({ where: { agentId: agent.id } })).toBe(0);

    const badHash = await confirm({ txHash: "0x1234" });
    expect(badHash.status).toBe(400);
    expect((await badHash.json()).error).toMatch(/^txHash: must be a 0x-prefixed 32-byte transaction hash/);
    expect((await confirm({})).status).toBe(400);
  });

  it("429 after 20 rapid requests from one IP (X-Forwarded-For), other IPs unaffected", async () => {
    const ip = uniqueIp();
    // The limiter reads "now" from Date.now(): held still, no token comes back (one every 3 s)
    // however slowly the machine answers the 21 requests.
    vi.useFakeTimers({ toFake: ["Date"] });
    onTestFinished(() => {
      vi.useRealTimers();
    });
    // Invalid bodies: the limit is spent before the body is read, and nothing is stored.
    const first = await Promise.all(Array.from({ length: 20 }, () => quote({}, ip)));
    expect(first.map((r) => r.status)).toEqual(Array(20).fill(400));
    const limited = await confirm({}, ip); // quote and confirm share the bucket
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect((await limited.json()).error).toMatch(/Too many requests/);
    expect((await quote({}, uniqueIp())).status).toBe(400);
  });
});
