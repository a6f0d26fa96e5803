import { randomBytes, randomInt } from "node:crypto";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { POST as CHAT } from "@/app/api/v1/chat/route";
import { GET as STATUS } from "@/app/api/v1/status/route";
import { renterRequest } from "@/test/api-requests";
import { makeAgent, makeRental, uniqueIp } from "@/test/fixtures";

// The /v1 wrapper's limits as a client meets them: which limit answered a 429, with whose
// headers, and what counts as one client. The clock (Date) stands still, so no refill lands
// inside a burst however slow the machine is.
let agent: Awaited<ReturnType<typeof makeAgent>>;
beforeAll(async () => {
  agent = await makeAgent();
});
beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
});
afterEach(() => vi.useRealTimers());

const wrongCode = () => randomBytes(8).toString("hex");
const status = (code: string | undefined, ip: string) => STATUS(renterRequest("status", { code, ip }));
// Addresses of one /64 (a fresh one per call of net()), each different.
const net = () => {
  const prefix = uniqueIp().split("::")[0];
  return () =>
    `${prefix}:${randomInt(0, 0x10000).toString(16)}:${randomInt(0, 0x10000).toString(16)}:${randomInt(0, 0x10000).toString(16)}:${randomInt(1, 0x10000).toString(16)}`;
};

describe("/v1 failed-lookup limit", () => {
  it("its 429 says so, with its own RateLimit headers (not the 60/min ones) and CORS", async () => {
    const ip = uniqueIp();
    for (let i = 0; i < 10; i++) {
      const res = await status(wrongCode(), ip);
      expect(res.status).toBe(404);
      // Answers that passed carry the 60/min limit's headers.
      expect(res.headers.get("ratelimit-limit")).toBe("60");
    }
    for (const res of [
      await status(wrongCode(), ip),
      await CHAT(renterRequest("chat", { code: wrongCode(), ip, body: { message: "hi" } })),
    ]) {
      expect(res.status).toBe(429);
      expect((await res.json()).error).toMatch(
        /^Too many wrong rental codes from this address \(at most 10 a minute\); retry in 6 seconds\.$/,
      );
      expect(res.headers.get("ratelimit-limit")).toBe("10");
      expect(res.headers.get("ratelimit-remaining")).toBe("0");
      expect(res.headers.get("ratelimit-reset")).toBe("6");
      expect(res.headers.get("retry-after")).toBe("6");
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
    }
  });

  it("51 parallel wrong codes from one client: 10 are looked up (404), 41 refused by this limit", async () => {
    const ip = uniqueIp();
    const responses = await Promise.all(Array.from({ length: 51 }, () => status(wrongCode(), ip)));
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 404)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(41);
    for (const res of responses.filter((r) => r.status === 429)) expect(res.headers.get("ratelimit-limit")).toBe("10");
  });

  it("a valid code keeps working from that client once it has been used", async () => {
    const rental = await makeRental(agent.id);
    const ip = uniqueIp();
    expect((await status(rental.id.slice(0, 8), ip)).status).toBe(200);
    for (let i = 0; i < 10; i++) await status(wrongCode(), ip);
    expect((await status(wrongCode(), ip)).status).toBe(429);
    expect((await status(rental.id.slice(0, 8), ip)).status).toBe(200);
  });
});

describe("/v1 limits per client: an IPv6 /64 is one client", () => {
  it("60/min: requests from 60 addresses of one /64 spend one bucket", async () => {
    const rental = await makeRental(agent.id);
    const code = rental.id.slice(0, 8);
    const address = net();
    for (let i = 0; i < 60; i++) expect((await status(code, address())).status, `request ${i + 1}`).toBe(200);
    const res = await status(code, address());
    expect(res.status).toBe(429);
    expect((await res.json()).error).toMatch(/^Too many requests; retry in 1 second\.$/);
    expect((await status(code, uniqueIp())).status).toBe(200);
  });

  it("failed lookups: 10 wrong codes from 10 addresses of one /64 empty its budget", async () => {
    const address = net();
    for (let i = 0; i < 10; i++) expect((await status(wrongCode(), address())).status).toBe(404);
    expect((await status(wrongCode(), address())).status).toBe(429);
    expect((await status(wrongCode(), uniqueIp())).status).toBe(404);
  });

  it("an IPv4-mapped IPv6 address is the IPv4 client", async () => {
    const v4 = `198.18.${randomInt(0, 256)}.${randomInt(1, 255)}`;
    for (let i = 0; i < 5; i++) await status(wrongCode(), v4);
    for (let i = 0; i < 5; i++) await status(wrongCode(), `::ffff:${v4}`);
    expect((await status(wrongCode(), v4)).status).toBe(429);
  });
});
