import { encodeAbiParameters, keccak256 } from "viem";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { GET, OPTIONS, POST } from "@/app/api/v1/availability/route";
import { GET as STATUS } from "@/app/api/v1/status/route";
import { db } from "@/lib/db";
import { renterRequest } from "@/test/api-requests";
import { makeAgent, makeRental, uniqueIp } from "@/test/fixtures";

// Token buckets and the rental's minutes both read the clock: tests freeze Date (timers stay
// real), so the minute a request falls in and every count are exact however slow the machine. On
// a whole second, as a paid rental's start is (a block's time), so every minute starts on one.
const freezeClock = () => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(Math.floor(Date.now() / 1000) * 1000);
};
afterEach(() => vi.useRealTimers());

type Agent = Awaited<ReturnType<typeof makeAgent>>;
let agent: Agent;

beforeAll(async () => {
  agent = await makeAgent(); // 2 USDC an hour, 10 a day
});

const availability = (options: Parameters<typeof renterRequest>[1] = {}) => GET(renterRequest("availability", options));

const KEYS = [
  "rental_id",
  "minutes_total",
  "minutes_measured",
  "minutes_down",
  "down_minutes",
  "uptime_percent",
  "guarantee_percent",
  "refund_due_usdc",
  "sla_hash",
];

// The renter's own check, as docs/availability.md shows it: the hash from the listed minutes.
const recomputedSlaHash = (downMinutes: string[]) =>
  keccak256(encodeAbiParameters([{ type: "uint64[]" }], [downMinutes.map((m) => BigInt(Date.parse(m) / 1000))]));

/** Writes the rental's measured and down minutes as run lists ([from, to) pairs), as the probe would. */
async function recordRuns(rentalId: string, runs: { measured: number[]; down: number[]; guaranteePermille?: number }) {
  await db.rental.update({
    where: { id: rentalId },
    data: { minutesMeasured: runs.measured, minutesDown: runs.down, guaranteePermille: runs.guaranteePermille },
  });
}

const minuteIso = (startsAt: Date, index: number) => new Date(startsAt.getTime() + index * 60_000).toISOString();

describe("GET /api/v1/availability", () => {
  it("200: exactly the documented fields, for a rental nothing has gone wrong with", async () => {
    freezeClock();
    const rental = await makeRental(agent.id, { durationType: "hour" });
    const res = await availability({ code: rental.id.slice(0, 8) });
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    const body = await res.json();
    expect(Object.keys(body).sort()).toEqual([...KEYS].sort());
    expect(body).toEqual({
      rental_id: rental.id,
      minutes_total: 60,
      minutes_measured: 0,
      minutes_down: 0,
      down_minutes: [],
      uptime_percent: 100, // its first minute has begun, and a minute not measured counts as up
      guarantee_percent: 99,
      refund_due_usdc: "0",
      sla_hash: recomputedSlaHash([]),
    });
  });

  it("200: recorded down minutes give the counts, the ISO list, the refund and a hash anyone can recompute", async () => {
    freezeClock();
    // An hour's rental, half over: minutes 0–29 measured, 5–9 and 20–21 down (7 minutes).
    const rental = await makeRental(agent.id, { durationType: "hour", startsInSeconds: -1800, endsInSeconds: 1800 });
    await recordRuns(rental.id, { measured: [0, 30], down: [5, 10, 20, 22] });
    const body = await (await availability({ code: rental.id })).json();
    const down = [5, 6, 7, 8, 9, 20, 21].map((m) => minuteIso(rental.startsAt, m));
    expect(body).toMatchObject({
      rental_id: rental.id,
      minutes_total: 60,
      minutes_measured: 30,
      minutes_down: 7,
      down_minutes: down,
      // Minutes 0–30 have begun (31), 7 of them down: 24/31 = 77.419… %, rounded down.
      uptime_percent: 77.41,
      guarantee_percent: 99,
    });
    // Allowance floor(60 × 1 / 100) = 0, so all 7 are refunded: 2 USDC × 7 / 60 = 0.233333 USDC.
    expect(body.refund_due_usdc).toBe("0.233333");
    expect(rental.priceMicro).toBe(2_000_000n);
    expect(body.sla_hash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(body.sla_hash).toBe(recomputedSlaHash(body.down_minutes));
    expect(body.sla_hash).not.toBe(recomputedSlaHash([]));
  });

  it("200: the guarantee's allowance is the owner's; only the minutes beyond it are refunded", async () => {
    freezeClock();
    // A day is 1,440 minutes: a 99 % guarantee allows floor(14.4) = 14 down minutes.
    const day = await makeRental(agent.id, { durationType: "day", startsInSeconds: -7200 });
    await recordRuns(day.id, { measured: [0, 120], down: [100, 114] });
    const within = await (await availability({ code: day.id })).json();
    expect(within).toMatchObject({ minutes_total: 1440, minutes_down: 14, guarantee_percent: 99, refund_due_usdc: "0" });
    await recordRuns(day.id, { measured: [0, 120], down: [100, 120] });
    // 20 down, 6 beyond the allowance: 10 USDC × 6 / 1,440 = 0.041666 USDC (rounded down to the micro-USDC).
    const beyond = await (await availability({ code: day.id })).json();
    expect(beyond).toMatchObject({ minutes_down: 20, refund_due_usdc: "0.041666" });
    expect(beyond.sla_hash).toBe(recomputedSlaHash(beyond.down_minutes));

    // 99.9 % on a day allows floor(1.44) = 1 minute.
    const strict = await makeRental(agent.id, { durationType: "day", startsInSeconds: -7200 });
    await recordRuns(strict.id, { measured: [0, 120], down: [0, 2], guaranteePermille: 999 });
    expect(await (await availability({ code: strict.id })).json()).toMatchObject({
      guarantee_percent: 99.9,
      minutes_down: 2,
      refund_due_usdc: "0.006944", // 10 USDC × 1 / 1,440
    });
  });

  it("200: for ended, disputed and not yet started rentals; a settled one reports what the escrow recorded", async () => {
    freezeClock();
    const ended = await makeRental(agent.id, { durationType: "hour", status: "completed", startsInSeconds: -7200, endsInSeconds: -3600 });
    await recordRuns(ended.id, { measured: [0, 60], down: [0, 15] });
    const final = await (await availability({ code: ended.id })).json();
    // The worked example of docs/availability.md at 2 USDC: 15 of 60 minutes down → a quarter back.
    expect(final).toMatchObject({ minutes_total: 60, minutes_measured: 60, minutes_down: 15, uptime_percent: 75, refund_due_usdc: "0.5" });
    expect(final.sla_hash).toBe(recomputedSlaHash(final.down_minutes));

    const disputed = await makeRental(agent.id, { durationType: "hour", status: "disputed", startsInSeconds: -600 });
    await recordRuns(disputed.id, { measured: [0, 10], down: [3, 4] });
    expect(await (await availability({ code: disputed.id })).json()).toMatchObject({
      minutes_down: 1,
      down_minutes: [minuteIso(disputed.startsAt, 3)],
    });

    const later = await makeRental(agent.id, { durationType: "hour", startsInSeconds: 600 });
    expect(await (await availability({ code: later.id })).json()).toMatchObject({
      minutes_total: 60,
      minutes_measured: 0,
      uptime_percent: null, // no minute has begun
      refund_due_usdc: "0",
    });

    // Settled on chain: the RentalSettled event's refund and hash are the final record.
    const settledHash = `0x${"ab".repeat(32)}`;
    await db.rental.update({ where: { id: ended.id }, data: { availabilityRefundMicro: 500_000n, slaHash: settledHash } });
    expect(await (await availability({ code: ended.id })).json()).toMatchObject({ refund_due_usdc: "0.5", sla_hash: settledHash });
  });

  it("401: missing or malformed code; 404: no rental has it, and a pending rental is invisible", async () => {
    const missing = await availability();
    expect(missing.status).toBe(401);
    expect(await missing.json()).toEqual({ error: expect.stringMatching(/X-API-Key/) });
    expect(missing.headers.get("access-control-allow-origin")).toBe("*");
    for (const code of ["abc123", "zzzzzzzz", "a".repeat(33)]) {
      const res = await availability({ code });
      expect(res.status, code).toBe(401);
      expect((await res.json()).error).toMatch(/Invalid rental code/);
    }
    const unknown = await availability({ code: "00000000" });
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).error).toMatch(/not found/i);
    const pending = await makeRental(agent.id, { status: "pending" as never });
    expect((await availability({ code: pending.id })).status).toBe(404);
  });

  it("429: shares the 60/min bucket of the /v1 endpoints with /v1/status, with Retry-After and CORS", async () => {
    freezeClock();
    const rental = await makeRental(agent.id);
    const code = rental.id.slice(0, 8);
    const ip = uniqueIp();
    for (let i = 0; i < 30; i++) {
      expect((await STATUS(renterRequest("status", { code, ip }))).status, `status ${i + 1}`).toBe(200);
      expect((await availability({ code, ip })).status, `availability ${i + 1}`).toBe(200);
    }
    const res = await availability({ code, ip });
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("1");
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect((await res.json()).error).toMatch(/Too many requests/);
    expect((await STATUS(renterRequest("status", { code, ip }))).status).toBe(429);
    expect((await availability({ code })).status).toBe(200); // another client is unaffected
  });

  it("OPTIONS is the CORS preflight; other methods answer 405 in the error form", async () => {
    const preflight = await OPTIONS();
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-methods")).toMatch(/GET/);
    const res = await POST();
    expect(res.status).toBe(405);
    expect((await res.json()).error).toMatch(/use GET/);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
  });
});
