import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { GET, OPTIONS, POST } from "@/app/api/v1/status/route";
import { db } from "@/lib/db";
import { newRentalKeys } from "@/lib/rentals/new-rental-keys";
import { renterRequest } from "@/test/api-requests";
import { makeAgent, makeRental, uniqueIp } from "@/test/fixtures";

// Token buckets refill on the clock, and @upstash/ratelimit reads it with Date.now(): tests that
// count a bucket down freeze Date (timers stay real), so no refill can land inside their burst
// however slow the machine, and every count and Retry-After is exact.
const freezeClock = () => vi.useFakeTimers({ toFake: ["Date"] });
afterEach(() => vi.useRealTimers());

type Agent = Awaited<ReturnType<typeof makeAgent>>;
let agent: Agent;

beforeAll(async () => {
  agent = await makeAgent();
});

const status = (options: Parameters<typeof renterRequest>[1] = {}) => GET(renterRequest("status", options));

describe("GET /api/v1/status", () => {
  it("200: returns exactly the spec's fields", async () => {
    freezeClock();
    const rental = await makeRental(agent.id, { durationType: "hour" });
    const res = await status({ code: rental.id.slice(0, 8) });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(Object.keys(body).sort()).toEqual(["agent", "rental"]);
    expect(Object.keys(body.rental).sort()).toEqual(
      ["channel", "duration_type", "ends_at", "id", "starts_at", "status", "time_remaining_seconds"].sort(),
    );
    expect(body.agent).toEqual({ id: agent.id, name: agent.name, description: agent.description });
    expect(body.rental).toMatchObject({
      id: rental.id,
      status: "active",
      duration_type: "hour",
      channel: "API",
      starts_at: rental.startsAt.toISOString(),
      ends_at: rental.endsAt.toISOString(),
    });
    expect(body.rental.time_remaining_seconds).toBe(3600);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("accepts the code with or without dashes, in any case, as X-API-Key or Bearer, 8 or more characters", async () => {
    const rental = await makeRental(agent.id);
    const variants = [
      rental.id.slice(0, 8),
      rental.id.slice(0, 8).toUpperCase(),
      rental.id.slice(0, 13), // includes a dash
      rental.id.replaceAll("-", "").slice(0, 20),
      rental.id.toUpperCase(),
    ];
    for (const code of variants) {
      for (const auth of ["x-api-key", "bearer"] as const) {
        const res = await status({ code, auth });
        expect(res.status, `${auth} ${code}`).toBe(200);
        expect((await res.json()).rental.id).toBe(rental.id);
      }
    }
  });

  it("reports 0 seconds left once a rental has expired, and the other statuses as they are", async () => {
    const expired = await makeRental(agent.id, { startsInSeconds: -7200, endsInSeconds: -60 });
    const body = await (await status({ code: expired.id })).json();
    expect(body.rental.time_remaining_seconds).toBe(0);
    for (const s of ["cancelled", "disputed", "completed"] as const) {
      const rental = await makeRental(agent.id, { status: s });
      const res = await status({ code: rental.id.slice(0, 8) });
      expect(res.status).toBe(200);
      expect((await res.json()).rental.status).toBe(s);
    }
  });

  it("401: missing credential", async () => {
    const res = await status();
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: expect.stringMatching(/X-API-Key/) });
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("401: malformed codes (too short, not hex, empty bearer)", async () => {
    for (const code of ["abc123", "1234567", "zzzzzzzz", "12345678-xyz", "a".repeat(33)]) {
      const res = await status({ code });
      expect(res.status, code).toBe(401);
      expect((await res.json()).error).toMatch(/Invalid rental code/);
    }
    const res = await GET(renterRequest("status", { headers: { authorization: "Bearer " } }));
    expect(res.status).toBe(401);
  });

  it("404: no rental has that code; a pending (unpaid) rental is invisible", async () => {
    const res = await status({ code: "00000000" });
    expect(res.status).toBe(404);
    expect((await res.json()).error).toMatch(/not found/i);
    const pending = await makeRental(agent.id, { status: "pending" as never });
    expect((await status({ code: pending.id })).status).toBe(404);
  });

  it("400: a prefix shared by two rentals asks for more characters", async () => {
    const a = await makeRental(agent.id);
    const b = await makeRental(agent.id);
    expect(a.id.slice(0, 8)).not.toBe(b.id.slice(0, 8)); // new rentals never share 8 characters
    // An older row sharing the first 8 characters (as could exist before that rule).
    const prefix = a.id.slice(0, 8);
    const twin = await db.rental.create({
      data: {
        id: `${prefix}-0000-4000-8000-000000000000`,
        ...newRentalKeys(),
        agentId: agent.id,
        status: "active",
        durationType: "day",
        channel: "API",
        startsAt: a.startsAt,
        endsAt: a.endsAt,
        priceMicro: a.priceMicro,
        feeMicro: a.feeMicro,
      },
    });
    const res = await status({ code: prefix });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatch(/more characters/);
    expect((await status({ code: a.id })).status).toBe(200);
    expect((await status({ code: twin.id.slice(0, 13) })).status).toBe(200);
  });

  it("429: the 61st request in a minute from one IP, with Retry-After and CORS", async () => {
    freezeClock();
    const rental = await makeRental(agent.id);
    const ip = uniqueIp();
    for (let i = 0; i < 60; i++) {
      const res = await status({ code: rental.id.slice(0, 8), ip });
      expect(res.status, `request ${i + 1}`).toBe(200);
    }
    const res = await status({ code: rental.id.slice(0, 8), ip });
    expect(res.status).toBe(429);
    // The bucket gains its next token 1 s after the burst began, and the clock stands still.
    expect(res.headers.get("retry-after")).toBe("1");
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect((await res.json()).error).toMatch(/Too many requests/);
    // Another IP is unaffected.
    expect((await status({ code: rental.id.slice(0, 8) })).status).toBe(200);
  });

  it("429: repeated unknown codes from one IP are slowed down before the general limit", async () => {
    freezeClock();
    const ip = uniqueIp();
    const rental = await makeRental(agent.id);
    let firstLimited = 0;
    for (let i = 1; i <= 15 && !firstLimited; i++) {
      const res = await status({ code: `ffffffff${i.toString(16).padStart(2, "0")}`, ip });
      if (res.status === 429) firstLimited = i;
      else expect(res.status).toBe(404);
    }
    expect(firstLimited).toBe(11); // 10 failed lookups a minute
    // Even a valid code is refused from that IP now.
    expect((await status({ code: rental.id, ip })).status).toBe(429);
  });

  it("OPTIONS preflight: 204 naming methods and headers", async () => {
    const res = await OPTIONS();
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-methods")).toMatch(/GET/);
    const allowed = res.headers
      .get("access-control-allow-headers")!
      .split(",")
      .map((h) => h.trim().toLowerCase());
    expect(allowed).toEqual(expect.arrayContaining(["authorization", "x-api-key", "content-type"]));
  });

  it("405 in the error form for other methods", async () => {
    const res = await POST();
    expect(res.status).toBe(405);
    expect((await res.json()).error).toMatch(/GET/);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
  });
});
