import { describe, expect, it, onTestFinished, vi } from "vitest";
import { GET, POST, PUT } from "@/app/api/public/agents/route";
import { db } from "@/lib/db";
import { appUrl } from "@/lib/env";
import { ownerRequest } from "@/test/api-requests";
import { makeOwnerAgent, makeOwnerWithKey, makeRental, uniqueIp } from "@/test/fixtures";

const list = (key?: string, options: Parameters<typeof ownerRequest>[1] = {}) => GET(ownerRequest("agents", { key, ...options }));
const create = (key: string, body: unknown, options: Parameters<typeof ownerRequest>[1] = {}) =>
  POST(ownerRequest("agents", { key, body, method: "POST", ...options }));

const listing = {
  name: "DocsBot",
  description: "Answers questions about my product documentation.",
  category: "support",
  channels: ["Telegram", "API"],
  pricePerHour: 2,
  pricePerDay: 30.5,
};

describe("GET /api/public/agents", () => {
  it("200: the account's agents with prices, status, ratings and rental totals; never the webhook", async () => {
    const { accountId, apiKey } = await makeOwnerWithKey();
    const token = "s".repeat(40);
    const rated = await makeOwnerAgent(accountId, {
      listing: { name: "Rated", pricePerMonth: null },
      webhook: { url: "https://agent.example.com/hooks/agent", token },
    });
    const quiet = await makeOwnerAgent(accountId, { listing: { name: "Quiet", skills: ["sql"] } });
    // Three paid rentals (one still running), one awaiting payment that does not count.
    const rentals = [
      await makeRental(rated.id, { status: "completed" }),
      await makeRental(rated.id, { status: "completed" }),
      await makeRental(rated.id),
      await makeRental(rated.id, { status: "pending" }),
    ];
    for (const [rental, score] of [
      [rentals[0], 5],
      [rentals[1], 4],
      [rentals[2], 4],
    ] as const) {
      await db.rating.create({ data: { rentalId: rental.id, agentId: rated.id, score } });
    }
    const other = await makeOwnerWithKey();
    await makeOwnerAgent(other.accountId, { listing: { name: "Not mine" } });

    const res = await list(apiKey);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).not.toContain("agent.example.com");
    expect(text).not.toContain(token);
    const { agents } = JSON.parse(text);
    expect(agents).toEqual([
      {
        id: rated.id,
        name: "Rated",
        description: "Does owner things.",
        category: "coding",
        skills: ["code-review", "debugging", "refactoring"],
        channels: ["API"],
        pricePerHour: 2,
        pricePerDay: 10,
        pricePerMonth: null,
        pricePerMessage: null,
        trialMessages: null,
        guaranteePercent: 99,
        status: "available",
        webhookConnected: true,
        notRentableReason: null,
        marketplaceUrl: `${appUrl()}/agents/${rated.id}`,
        rating: { average: 4.33, count: 3 },
        totalRentals: 3,
        createdAt: rated.createdAt.toISOString(),
      },
      expect.objectContaining({
        id: quiet.id,
        skills: ["sql"],
        webhookConnected: false,
        notRentableReason: "no-webhook",
        rating: { average: null, count: 0 },
        totalRentals: 0,
      }),
    ]);
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
    expect(res.headers.get("ratelimit-limit")).toBe("30");
  });

  it("200: an empty list for an account without agents", async () => {
    const { apiKey } = await makeOwnerWithKey();
    const res = await list(apiKey, { auth: "x-api-key" });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ agents: [] });
  });

  it("401: missing, malformed, unknown or revoked key", async () => {
    const { accountId, apiKey } = await makeOwnerWithKey();
    await db.apiKey.updateMany({ where: { accountId }, data: { revokedAt: new Date() } });
    const cases: [string | undefined, RegExp][] = [
      [undefined, /Missing API key/],
      ["rck_123", /Malformed API key/],
      ["rck_AAAAAAAAAAAAAAAAAAAAAAAAAAAA", /Malformed API key/],
      [apiKey, /^Invalid or revoked API key\.$/],
    ];
    for (const [key, error] of cases) {
      const res = await list(key);
      expect(res.status, String(key)).toBe(401);
      expect(await res.json()).toEqual({ error: expect.stringMatching(error) });
    }
  });

  it("429: the 31st request in a minute with one key, with Retry-After; other keys are unaffected", async () => {
    const { apiKey } = await makeOwnerWithKey();
    // The limiter reads "now" from Date.now() in this process: held still, a slow machine cannot
    // refill the bucket (one token every 2 s) while the 31 requests go out.
    vi.useFakeTimers({ toFake: ["Date"] });
    onTestFinished(() => {
      vi.useRealTimers();
    });
    for (let i = 0; i < 30; i++) expect((await list(apiKey)).status, `request ${i + 1}`).toBe(200);
    const res = await list(apiKey);
    expect(res.status).toBe(429);
    const retry = Number(res.headers.get("retry-after"));
    expect(Number.isInteger(retry) && retry >= 1 && retry <= 60).toBe(true);
    expect((await res.json()).error).toMatch(/Too many requests/);
    // The bucket belongs to the key, not the address: the same key from another IP is limited too.
    expect((await list(apiKey, { ip: uniqueIp() })).status).toBe(429);
    const other = await makeOwnerWithKey();
    expect((await list(other.apiKey)).status).toBe(200);
  });

  it("429: requests without a valid key are limited per client IP (10 a minute)", async () => {
    const ip = uniqueIp();
    for (let i = 0; i < 10; i++) expect((await list(undefined, { ip })).status).toBe(401);
    const res = await list(undefined, { ip });
    expect(res.status).toBe(429);
    expect((await res.json()).error).toMatch(/^Too many requests without a valid API key from this address/);
    expect((await list(undefined)).status).toBe(401);
  });

  it("405 in the error form for other methods", async () => {
    const res = PUT();
    expect(res.status).toBe(405);
    expect((await res.json()).error).toMatch(/GET, POST/);
  });
});

describe("POST /api/public/agents", () => {
  it("201: creates an available listing with its marketplace URL and the category's default skills", async () => {
    const { accountId, apiKey } = await makeOwnerWithKey();
    const res = await create(apiKey, { ...listing, pricePerMonth: "700.25", channels: ["API", "Telegram", "API"] });
    expect(res.status).toBe(201);
    const { agent } = await res.json();
    expect(agent).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: "DocsBot",
      description: listing.description,
      category: "support",
      skills: ["customer-support", "faq", "triage"],
      channels: ["API", "Telegram"],
      pricePerHour: 2,
      pricePerDay: 30.5,
      pricePerMonth: 700.25,
      pricePerMessage: null, // not sold per message unless set
      trialMessages: null, // no free trial unless offered
      guaranteePercent: 99, // the default
      status: "available",
      webhookConnected: false,
      // `available` as the specification says, yet not rentable until a webhook is connected.
      notRentableReason: "no-webhook",
      marketplaceUrl: `${appUrl()}/agents/${agent.id}`,
      rating: { average: null, count: 0 },
      totalRentals: 0,
      createdAt: expect.any(String),
    });
    const row = await db.agent.findUniqueOrThrow({ where: { id: agent.id } });
    expect([row.ownerId, row.pricePerDay, row.pricePerMonth, row.webhookUrlCipher]).toEqual([accountId, 30_500_000n, 700_250_000n, null]);
    // It shows up in the account's list.
    expect((await (await list(apiKey)).json()).agents.map((a: { id: string }) => a.id)).toEqual([agent.id]);
  });

  it("201: given skills are kept; a blank or null price leaves that duration disabled", async () => {
    const { apiKey } = await makeOwnerWithKey();
    const res = await create(apiKey, {
      ...listing,
      skills: ["Docs", "faq"],
      pricePerHour: "",
      pricePerDay: null,
      pricePerMonth: 50,
    });
    expect(res.status).toBe(201);
    const { agent } = await res.json();
    expect(agent).toMatchObject({ skills: ["docs", "faq"], pricePerHour: null, pricePerDay: null, pricePerMonth: 50 });
  });

  it("201: a price per message (USDC, at least 0.001) is stored as micro-USDC and read back, besides the rental prices", async () => {
    const { apiKey } = await makeOwnerWithKey();
    for (const [given, usdc, micro] of [
      [0.01, 0.01, 10_000n],
      ["0.001", 0.001, 1_000n],
      [0.0015, 0.0015, 1_500n],
      ["2.5", 2.5, 2_500_000n],
      [1_000_000, 1_000_000, 1_000_000_000_000n],
    ] as const) {
      const res = await create(apiKey, { ...listing, pricePerMessage: given });
      expect(res.status, String(given)).toBe(201);
      const { agent } = await res.json();
      expect(agent, String(given)).toMatchObject({ pricePerMessage: usdc, pricePerHour: 2, pricePerDay: 30.5 });
      expect((await db.agent.findUniqueOrThrow({ where: { id: agent.id } })).pricePerMessage, String(given)).toBe(micro);
    }
    // Blank and null: not sold per message, as a blank rental price disables its duration.
    for (const blank of ["", "  ", null]) {
      const res = await create(apiKey, { ...listing, pricePerMessage: blank });
      expect(res.status).toBe(201);
      expect((await res.json()).agent.pricePerMessage).toBeNull();
    }
    const { agents } = await (await list(apiKey)).json();
    expect(agents.map((a: { pricePerMessage: number | null }) => a.pricePerMessage)).toEqual([
      0.01,
      0.001,
      0.0015,
      2.5,
      1_000_000,
      null,
      null,
      null,
    ]);
  });

  it("400: a price per message below 0.001, with a seventh decimal, negative, too large or not a number; never alone", async () => {
    const { apiKey } = await makeOwnerWithKey();
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ pricePerMessage: 0 }, /^pricePerMessage: must be at least 0\.001 USDC$/],
      [{ pricePerMessage: 0.0009 }, /^pricePerMessage: must be at least 0\.001 USDC$/],
      [{ pricePerMessage: "0.000999" }, /^pricePerMessage: must be at least 0\.001 USDC$/],
      [{ pricePerMessage: 0.0010001 }, /^pricePerMessage: must have at most 6 decimals$/],
      [{ pricePerMessage: "0.0000001" }, /^pricePerMessage: must have at most 6 decimals$/],
      [{ pricePerMessage: -0.01 }, /^pricePerMessage: must not be negative$/],
      [{ pricePerMessage: 1_000_000.01 }, /^pricePerMessage: must be at most 1,000,000 USDC$/],
      [{ pricePerMessage: "a cent" }, /^pricePerMessage: must be a USDC amount such as 0\.01$/],
      [{ pricePerMessage: true }, /^pricePerMessage: must be a USDC amount such as 0\.01$/],
      [{ pricePerMessage: [0.01] }, /^pricePerMessage: must be a USDC amount such as 0\.01$/],
      // Answers are sold besides rentals, never instead: a listing keeps a rental price.
      [
        { pricePerHour: null, pricePerDay: null, pricePerMessage: 0.01 },
        /^pricePerHour: set a price for at least one duration: per hour, per day or per month$/,
      ],
    ];
    for (const [change, error] of cases) {
      const res = await create(apiKey, { ...listing, ...change });
      expect(res.status, JSON.stringify(change)).toBe(400);
      expect((await res.json()).error, JSON.stringify(change)).toMatch(error);
    }
    expect(await db.agent.count({ where: { owner: { apiKeys: { some: { prefix: apiKey.slice(0, 12) } } } } })).toBe(0);
  });

  it("201: a free trial of 1–20 messages is offered at creation and read back; 400 outside it", async () => {
    const { apiKey } = await makeOwnerWithKey();
    let res = await create(apiKey, { ...listing, trialMessages: 3 });
    expect(res.status).toBe(201);
    const { agent } = await res.json();
    expect(agent.trialMessages).toBe(3);
    expect((await db.agent.findUniqueOrThrow({ where: { id: agent.id } })).trialMessages).toBe(3);
    res = await create(apiKey, { ...listing, trialMessages: 50 });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toBe("trialMessages: must be a whole number of messages from 1 to 20, or null for no trial");
  });

  it("201: the uptime guarantee, from 90 to 99.9 with one decimal at most, is stored per mille and read back", async () => {
    const { apiKey } = await makeOwnerWithKey();
    for (const [given, percent, permille] of [
      [99.9, 99.9, 999],
      [90, 90, 900],
      ["99.5", 99.5, 995],
      [95.0, 95, 950],
    ] as const) {
      const res = await create(apiKey, { ...listing, guaranteePercent: given });
      expect(res.status, String(given)).toBe(201);
      const { agent } = await res.json();
      expect(agent.guaranteePercent).toBe(percent);
      expect((await db.agent.findUniqueOrThrow({ where: { id: agent.id } })).guaranteePermille).toBe(permille);
    }
    const { agents } = await (await list(apiKey)).json();
    expect(agents.map((a: { guaranteePercent: number }) => a.guaranteePercent)).toEqual([99.9, 90, 99.5, 95]);
  });

  it("400: an uptime guarantee outside 90–99.9, with more than one decimal, or not a number", async () => {
    const { apiKey } = await makeOwnerWithKey();
    const cases: [unknown, RegExp][] = [
      [89.9, /^guaranteePercent: must be between 90 and 99\.9$/],
      [100, /^guaranteePercent: must be between 90 and 99\.9$/],
      ["100.0", /^guaranteePercent: must be between 90 and 99\.9$/],
      [0, /^guaranteePercent: must be between 90 and 99\.9$/],
      [99.95, /^guaranteePercent: must have at most one decimal, such as 99\.5$/],
      ["99.99", /^guaranteePercent: must have at most one decimal, such as 99\.5$/],
      [-99, /^guaranteePercent: must be a percentage from 90 to 99\.9, such as 99 or 99\.5$/],
      ["high", /^guaranteePercent: must be a percentage from 90 to 99\.9/],
      [null, /^guaranteePercent: must be a percentage from 90 to 99\.9/],
      [true, /^guaranteePercent: must be a percentage from 90 to 99\.9/],
    ];
    for (const [guaranteePercent, error] of cases) {
      const res = await create(apiKey, { ...listing, guaranteePercent });
      expect(res.status, JSON.stringify(guaranteePercent)).toBe(400);
      expect((await res.json()).error, JSON.stringify(guaranteePercent)).toMatch(error);
    }
  });

  it("400: names the field that is wrong, for every field", async () => {
    const { apiKey } = await makeOwnerWithKey();
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ name: undefined }, /^name: is required$/],
      [{ name: 42 }, /^name: must be a string$/],
      [{ name: " x " }, /^name: must be at least 2 characters$/],
      [{ name: "x".repeat(61) }, /^name: must be at most 60 characters$/],
      [{ description: undefined }, /^description: is required$/],
      [{ description: "   " }, /^description: must not be empty$/],
      [{ description: "x".repeat(501) }, /^description: must be at most 500 characters$/],
      [{ category: undefined }, /^category: must be one of assistant, coding/],
      [{ category: "Support" }, /^category: must be one of/],
      [{ skills: "faq" }, /^skills: must be a list/],
      [{ skills: ["Not A Tag!"] }, /^skills\.0: skills are lower-case kebab tags/],
      [{ skills: Array.from({ length: 9 }, (_, i) => `s${i}`) }, /^skills: at most 8 skills$/],
      [{ channels: undefined }, /^channels: must be a list of channels/],
      [{ channels: [] }, /^channels: must name at least one channel$/],
      [{ channels: ["Signal"] }, /^channels\.0: /],
      [{ pricePerHour: 0 }, /^pricePerHour: must be more than 0/],
      [{ pricePerHour: -1 }, /^pricePerHour: must not be negative$/],
      [{ pricePerDay: 1.0000001 }, /^pricePerDay: must have at most 6 decimals$/],
      [{ pricePerDay: "ten" }, /^pricePerDay: must be a USDC amount such as 12.5$/],
      [{ pricePerMonth: 1_000_001 }, /^pricePerMonth: must be at most 1,000,000 USDC$/],
      [{ pricePerMonth: true }, /^pricePerMonth: must be a USDC amount such as 12.5$/],
      [{ pricePerHour: null, pricePerDay: "" }, /^pricePerHour: set a price for at least one duration: per hour, per day or per month$/],
      [{ price_per_hour: 2 }, /^unknown field "price_per_hour"; the fields are name, description/],
    ];
    for (const [change, error] of cases) {
      const res = await create(apiKey, { ...listing, ...change });
      expect(res.status, JSON.stringify(change)).toBe(400);
      expect((await res.json()).error, JSON.stringify(change)).toMatch(error);
    }
  });

  it("400: a body that is not a JSON object, not JSON, or not sent as application/json", async () => {
    const { apiKey } = await makeOwnerWithKey();
    const cases: [Parameters<typeof ownerRequest>[1], RegExp][] = [
      [{ body: [listing] }, /the body must be a JSON object/],
      [{ rawBody: "{nope", headers: { "content-type": "application/json" } }, /not valid JSON/],
      [{ rawBody: JSON.stringify(listing), headers: { "content-type": "text/plain" } }, /Content-Type must be application\/json/],
    ];
    for (const [options, error] of cases) {
      const res = await POST(ownerRequest("agents", { key: apiKey, method: "POST", ...options }));
      expect(res.status).toBe(400);
      expect((await res.json()).error).toMatch(error);
    }
    expect(
      await db.agent.count({
        where: { name: listing.name, owner: { apiKeys: { some: { prefix: apiKey.slice(0, 12) } } } },
      }),
    ).toBe(0);
  });

  it("413: a body over 16 KiB", async () => {
    const { apiKey } = await makeOwnerWithKey();
    const res = await POST(ownerRequest("agents", { key: apiKey, method: "POST", body: { ...listing, description: "x".repeat(20_000) } }));
    expect(res.status).toBe(413);
    expect((await res.json()).error).toBe("Request body is larger than 16384 bytes.");
  });

  it("401: no agent is created without a valid key", async () => {
    const res = await create("rck_nope", listing);
    expect(res.status).toBe(401);
    const missing = await POST(ownerRequest("agents", { body: listing, method: "POST" }));
    expect(missing.status).toBe(401);
  });
});
