import { randomBytes } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { GET as CHAT_GET, OPTIONS, POST } from "@/app/api/v1/chat/route";
import { GET as STATUS_GET } from "@/app/api/v1/status/route";
import { db } from "@/lib/db";
import { newRentalKeys } from "@/lib/rentals/new-rental-keys";
import { renterRequest } from "@/test/api-requests";
import { makeAgent, makeRental, startWebhook, uniqueIp } from "@/test/fixtures";

// Token buckets refill on the clock, and @upstash/ratelimit reads it with Date.now(): tests that
// count a bucket down freeze Date (timers stay real), so no refill can land inside their burst
// however slow the machine, and every count and Retry-After is exact.
const freezeClock = () => vi.useFakeTimers({ toFake: ["Date"] });
afterEach(() => vi.useRealTimers());

const token = randomBytes(24).toString("base64url");
type Webhook = Awaited<ReturnType<typeof startWebhook>>;
const hooks: Webhook[] = [];

// A webhook that replies per message text, so one server covers every behaviour.
let hook: Webhook;
beforeAll(async () => {
  hook = await startWebhook((req, res) => {
    const { message } = JSON.parse(req.body);
    switch (message) {
      case "json":
        return res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ text: "hi", cards: [1, 2] }));
      case "text":
        return res.writeHead(200, { "content-type": "text/plain" }).end("plain words");
      case "fail":
        return res.writeHead(500, { "content-type": "text/plain" }).end("boom");
      case "redirect":
        return res.writeHead(302, { location: "http://127.0.0.1:1/elsewhere" }).end();
      case "huge":
        return res.writeHead(200, { "content-type": "text/plain" }).end("x".repeat(1024 * 1024 + 10));
      case "slow":
        return void setTimeout(() => res.writeHead(200).end("late"), 4_000);
      default:
        return res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(`Echo: ${message}`));
    }
  });
  hooks.push(hook);
});
afterAll(async () => {
  await Promise.all(hooks.map((h) => h.close()));
});

async function rentalWithHook(url = hook.url, overrides: Parameters<typeof makeRental>[1] = {}) {
  const agent = await makeAgent({ webhook: { url, token } });
  const rental = await makeRental(agent.id, overrides);
  return { agent, rental, code: rental.id.slice(0, 8) };
}

const chat = (code: string | undefined, body: unknown, options: Parameters<typeof renterRequest>[1] = {}) =>
  POST(renterRequest("chat", { code, body, method: "POST", ...options }));

describe("POST /api/v1/chat", () => {
  it("200: passes a JSON string reply through, with exactly the spec's fields", async () => {
    const { agent, rental, code } = await rentalWithHook();
    const res = await chat(code, { message: "hello" });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toEqual({
      success: true,
      agent: agent.name,
      response: "Echo: hello",
      rental: { id: rental.id, ends_at: rental.endsAt.toISOString() },
    });
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("200: passes a JSON object through unchanged, and plain text as a string", async () => {
    const { code } = await rentalWithHook();
    expect((await (await chat(code, { message: "json" })).json()).response).toEqual({ text: "hi", cards: [1, 2] });
    expect((await (await chat(code, { message: "text" })).json()).response).toBe("plain words");
  });

  it("sends the webhook a POST with the token, agent name, rental reference and rental context, never the rental's id", async () => {
    const { agent, rental, code } = await rentalWithHook();
    const before = hook.received.length;
    await chat(code, { message: "context check" });
    const sent = hook.received.slice(before).find((r) => r.body.includes("context check"))!;
    expect(sent.method).toBe("POST");
    expect(sent.url).toBe("/hooks/agent");
    expect(sent.headers.authorization).toBe(`Bearer ${token}`);
    expect(sent.headers["x-agent-name"]).toBe(agent.name);
    const { ref } = await db.rental.findUniqueOrThrow({ where: { id: rental.id } });
    expect(ref).toMatch(/^rr_[0-9a-f]{32}$/);
    expect(sent.headers["x-rental-ref"]).toBe(ref);
    expect(sent.headers["x-rental-id"]).toBeUndefined();
    expect(sent.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(sent.body)).toEqual({
      type: "message",
      message: "context check",
      agentId: agent.id,
      sessionKey: expect.stringMatching(/^rental_[0-9a-f]{32}$/),
      channel: "API",
      rental: { ref, ends_at: rental.endsAt.toISOString(), duration_type: "day" },
    });
    // Nothing the owner receives holds the code or any other 8-character part of the id.
    const seen = `${JSON.stringify(sent.headers)} ${sent.body}`.toLowerCase();
    const idHex = rental.id.replaceAll("-", "");
    for (let i = 0; i + 8 <= idHex.length; i++) expect(seen).not.toContain(idHex.slice(i, i + 8));
  });

  it("the sessionKey is random per rental, the same on every message, and holds nothing of the rental's id", async () => {
    const first = await rentalWithHook();
    const second = await rentalWithHook();
    const keyOf = async (code: string, message: string) => {
      await chat(code, { message });
      return JSON.parse(hook.received.find((r) => r.body.includes(message))!.body).sessionKey as string;
    };
    const key = await keyOf(first.code, "session one");
    expect(await keyOf(first.code, "session one again")).toBe(key);
    expect(await keyOf(second.code, "session two")).not.toBe(key);
    const idHex = first.rental.id.replaceAll("-", "");
    for (let i = 0; i + 8 <= idHex.length; i += 4) expect(key).not.toContain(idHex.slice(i, i + 8));
    expect(key).toBe((await db.rental.findUniqueOrThrow({ where: { id: first.rental.id } })).sessionKey);
  });

  it("records each call with sizes, status and latency, never the message text", async () => {
    const { rental, code } = await rentalWithHook();
    await chat(code, { message: "secret words" });
    await chat(code, { message: "fail" });
    const calls = await db.chatCall.findMany({ where: { rentalId: rental.id }, orderBy: { id: "asc" } });
    expect(calls.map((c) => [c.statusCode, c.webhookStatus])).toEqual([
      [200, 200],
      [502, 500],
    ]);
    expect(calls[0].requestBytes).toBe(Buffer.byteLength("secret words"));
    expect(calls[0].responseBytes).toBe(Buffer.byteLength(JSON.stringify("Echo: secret words")));
    expect(JSON.stringify(calls, (_k, v) => (typeof v === "bigint" ? String(v) : v))).not.toContain("secret words");
  });

  it("400: message missing, not a string, empty, too long; bad JSON; wrong Content-Type", async () => {
    const { code } = await rentalWithHook();
    const cases: [unknown, RegExp][] = [
      [{}, /message: is required/],
      [{ message: 42 }, /message: must be a string/],
      [{ message: "" }, /message: must not be empty/],
      [{ message: "   " }, /message: must not be empty/],
      [{ message: "x".repeat(10_001) }, /at most 10,000 characters/],
      [[], /body|expected object/i],
    ];
    for (const [body, error] of cases) {
      const res = await chat(code, body);
      expect(res.status, JSON.stringify(body).slice(0, 40)).toBe(400);
      expect((await res.json()).error).toMatch(error);
    }
    expect((await chat(code, undefined, { rawBody: "{not json", headers: { "content-type": "application/json" } })).status).toBe(400);
    const wrongType = await chat(code, undefined, {
      rawBody: JSON.stringify({ message: "hi" }),
      headers: { "content-type": "text/plain" },
    });
    expect(wrongType.status).toBe(400);
    expect((await wrongType.json()).error).toMatch(/Content-Type must be application\/json/);
    // 10,000 characters exactly is fine, counted as a person would (an emoji is one).
    expect((await chat(code, { message: "😀".repeat(10_000) })).status).toBe(200);
  });

  it("400: an ambiguous prefix asks for more characters", async () => {
    const { rental } = await rentalWithHook();
    const prefix = rental.id.slice(0, 8);
    await db.rental.create({
      data: {
        id: `${prefix}-0000-4000-8000-000000000001`,
        ...newRentalKeys(),
        agentId: rental.agentId,
        status: "active",
        durationType: "day",
        channel: "API",
        startsAt: rental.startsAt,
        endsAt: rental.endsAt,
        priceMicro: rental.priceMicro,
        feeMicro: rental.feeMicro,
      },
    });
    const res = await chat(prefix, { message: "hi" });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatch(/more characters/);
  });

  it("401: missing, malformed or unknown rental code", async () => {
    for (const code of [undefined, "short", "00000000"]) {
      const res = await chat(code, { message: "hi" });
      expect(res.status, String(code)).toBe(401);
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
      expect(typeof (await res.json()).error).toBe("string");
    }
  });

  it("403: cancelled, disputed, completed, expired and not yet started rentals", async () => {
    const agent = await makeAgent({ webhook: { url: hook.url, token } });
    const rentals = {
      cancelled: await makeRental(agent.id, { status: "cancelled" }),
      disputed: await makeRental(agent.id, { status: "disputed" }),
      completed: await makeRental(agent.id, { status: "completed" }),
      expired: await makeRental(agent.id, { startsInSeconds: -7200, endsInSeconds: -1 }),
      "not started": await makeRental(agent.id, { startsInSeconds: 3600 }),
    };
    for (const [name, rental] of Object.entries(rentals)) {
      const res = await chat(rental.id.slice(0, 8), { message: "hi" });
      expect(res.status, name).toBe(403);
      expect((await res.json()).error).toMatch(new RegExp(name.split(" ")[0]));
    }
  });

  it("502: webhook answered non-2xx, redirected, or sent more than 1 MiB", async () => {
    const { code } = await rentalWithHook();
    const before = hook.received.length;
    for (const [message, error] of [
      ["fail", /HTTP 500/],
      ["redirect", /redirect/],
      ["huge", /1 MiB/],
    ] as const) {
      const res = await chat(code, { message });
      expect(res.status, message).toBe(502);
      expect((await res.json()).error).toMatch(error);
    }
    // The redirect target was not followed.
    expect(hook.received.slice(before).every((r) => r.url === "/hooks/agent")).toBe(true);
  });

  it("503: no webhook connected, connection refused, or no reply in time", async () => {
    const bare = await makeAgent();
    const noHook = await makeRental(bare.id);
    const res1 = await chat(noHook.id, { message: "hi" });
    expect(res1.status).toBe(503);
    expect((await res1.json()).error).toMatch(/no webhook/);

    const gone = await startWebhook((_req, res) => res.end());
    await gone.close();
    const refused = await rentalWithHook(gone.url);
    const res2 = await chat(refused.code, { message: "hi" });
    expect(res2.status).toBe(503);
    expect((await res2.json()).error).toMatch(/unreachable/);

    const { code } = await rentalWithHook();
    const res3 = await chat(code, { message: "slow" }); // WEBHOOK_TIMEOUT_MS is 1500 in tests
    expect(res3.status).toBe(503);
    expect((await res3.json()).error).toMatch(/did not reply/);
  });

  it("429: the per-IP budget is shared with /v1/status", async () => {
    freezeClock();
    const { code } = await rentalWithHook();
    const ip = uniqueIp();
    for (let i = 0; i < 60; i++) expect((await STATUS_GET(renterRequest("status", { code, ip }))).status).toBe(200);
    const res = await chat(code, { message: "hi" }, { ip });
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("1");
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("OPTIONS preflight and 405 for other methods", async () => {
    const pre = await OPTIONS();
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-methods")).toMatch(/POST/);
    expect(pre.headers.get("access-control-allow-headers")).toMatch(/X-API-Key/);
    const res = await CHAT_GET();
    expect(res.status).toBe(405);
    expect((await res.json()).error).toMatch(/POST/);
  });
});
