// Chaos: the real PostgreSQL and the real Redis (through the Upstash bridge) go away while the
// app serves traffic, then come back. Stopping the machine's services would break every other
// test run sharing them, so each sits behind a TCP relay (test/tcp-proxy.ts) that this file's
// app talks to and that cut() takes away exactly as a stopped server would: open connections
// drop, new ones are refused. The routes are the real handlers, as in their own tests.
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { startTcpProxy } from "@/test/tcp-proxy";

// The app reads its settings once, on first import: point them at the relays before that.
const realDatabase = new URL(process.env.DATABASE_URL!);
const database = await startTcpProxy({ host: realDatabase.hostname, port: Number(realDatabase.port || 5432) });
const proxiedDatabase = new URL(realDatabase);
proxiedDatabase.host = `127.0.0.1:${database.port}`;
process.env.DATABASE_URL = proxiedDatabase.toString();

const bridge = new URL(process.env.UPSTASH_REDIS_REST_URL!);
const redis = await startTcpProxy({ host: bridge.hostname, port: Number(bridge.port) });
process.env.UPSTASH_REDIS_REST_URL = `http://127.0.0.1:${redis.port}`;

const { GET: STATUS } = await import("@/app/api/v1/status/route");
const { POST: CREATE_AGENT } = await import("@/app/api/public/agents/route");
const { makeAgent, makeOwnerWithKey, makeRental, uniqueIp } = await import("@/test/fixtures");
const { ownerRequest, renterRequest } = await import("@/test/api-requests");
const { DATABASE_UNAVAILABLE_MESSAGE } = await import("@/lib/http/to-error-response");

afterEach(async () => {
  vi.restoreAllMocks();
  // A failed assertion must not leave the next test without its services.
  for (const proxy of [database, redis]) await proxy.restore().catch(() => {});
});
afterAll(async () => {
  await database.close();
  await redis.close();
});

const listing = {
  name: "Chaos Bot",
  description: "Stays up when its database does not.",
  category: "other",
  channels: ["API"],
  pricePerHour: 2,
};
const status = (code: string, ip = uniqueIp()) => STATUS(renterRequest("status", { code, ip }));
const createAgent = (apiKey: string) => CREATE_AGENT(ownerRequest("agents", { key: apiKey, method: "POST", body: listing }));

async function expectJsonError(res: Response, statusCode: number, error: string | RegExp, retryAfter: string) {
  expect(res.status).toBe(statusCode);
  expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  expect(res.headers.get("retry-after")).toBe(retryAfter);
  const body = await res.json();
  expect(Object.keys(body)).toEqual(["error"]);
  if (typeof error === "string") expect(body.error).toBe(error);
  else expect(body.error).toMatch(error);
}

describe("PostgreSQL goes away mid-traffic", () => {
  it("every request answers 503 JSON with Retry-After (never a 500) until it returns, then all work again", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const rental = await makeRental((await makeAgent()).id);
    const owner = await makeOwnerWithKey();
    const code = rental.id.slice(0, 8);
    expect((await status(code)).status).toBe(200);
    expect((await createAgent(owner.apiKey)).status).toBe(201);

    // Requests whose queries are on the wire when the database goes: the relay holds their
    // bytes, and once one has provably reached it, the database is cut under all of them.
    const { held } = database.hold();
    const inFlight = [...Array.from({ length: 6 }, () => status(code)), ...Array.from({ length: 4 }, () => createAgent(owner.apiKey))];
    await held;
    await database.cut();
    // And requests that arrive while it is down (new connections are refused).
    const whileDown = [status(code), createAgent(owner.apiKey), status(code)];
    for (const res of await Promise.all([...inFlight, ...whileDown])) {
      await expectJsonError(res, 503, DATABASE_UNAVAILABLE_MESSAGE, "5");
    }
    const logged = log.mock.calls.map((call) => String(call[0]));
    expect(logged.filter((line) => line.startsWith("Unhandled error"))).toEqual([]);
    expect(logged.filter((line) => line.startsWith("Database unavailable")).length).toBe(13);

    await database.restore();
    expect((await status(code)).status).toBe(200);
    expect((await createAgent(owner.apiKey)).status).toBe(201);
    const burst = await Promise.all(Array.from({ length: 8 }, () => status(code)));
    expect(burst.map((res) => res.status)).toEqual(Array(8).fill(200));
  });
});

describe("Redis goes away", () => {
  it("the /v1 limiter fails closed (429 JSON with Retry-After) while it is gone, and lets requests through once it is back", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const rental = await makeRental((await makeAgent()).id);
    const code = rental.id.slice(0, 8);
    expect((await status(code)).status).toBe(200);

    const { held } = redis.hold();
    const inFlight = Array.from({ length: 5 }, () => status(code));
    await held;
    await redis.cut();
    const whileDown = [status(code), status(code)];
    for (const res of await Promise.all([...inFlight, ...whileDown])) {
      await expectJsonError(res, 429, /^Too many requests/, "1");
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
    }
    // Each refusal is logged as the limiter failing, not as requests being over the limit.
    expect(log.mock.calls.flat().join("\n")).toMatch(/\[ratelimit\] ars:rl:renter-api: limiter .*fails closed/);

    await redis.restore();
    const after = await Promise.all([status(code), status(code), status(code)]);
    expect(after.map((res) => res.status)).toEqual([200, 200, 200]);
  });
});
