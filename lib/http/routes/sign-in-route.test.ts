import { afterEach, describe, expect, it, vi } from "vitest";
import { POST as CALLBACK } from "@/app/api/auth/email/callback/route";
import { POST as EMAIL } from "@/app/api/auth/email/route";
import { GET as NONCE } from "@/app/api/auth/nonce/route";
import { GET as SESSION } from "@/app/api/auth/session/route";
import { POST as SIWE } from "@/app/api/auth/siwe/route";
import { authRequest } from "@/test/auth-fixtures";
import { uniqueIp } from "@/test/fixtures";

// Token buckets refill on the clock, and @upstash/ratelimit reads it with Date.now(): tests that
// count a bucket down freeze Date (timers stay real), so no refill can land inside their burst
// however slow the machine, and every count and Retry-After is exact.
const freezeClock = () => vi.useFakeTimers({ toFake: ["Date"] });
afterEach(() => vi.useRealTimers());

describe("sign-in rate limit (policy auth: 10/min per client IP)", () => {
  it("429 with Retry-After on the 11th sign-in request from one IP, across all sign-in routes", async () => {
    freezeClock();
    const ip = uniqueIp();
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) {
      const res = await NONCE(authRequest("nonce", { ip }));
      statuses.push(res.status);
      expect(res.headers.get("ratelimit-remaining")).toBe(String(9 - i));
    }
    expect(statuses).toEqual(Array(10).fill(200));

    const limited = [
      await NONCE(authRequest("nonce", { ip })),
      await SIWE(authRequest("siwe", { ip, body: { message: "x", signature: "0x00" } })),
      await EMAIL(authRequest("email", { ip, body: { email: "a@example.com" } })),
      await CALLBACK(
        authRequest("email/callback", {
          ip,
          rawBody: "token=x",
          headers: { "content-type": "application/x-www-form-urlencoded", "sec-fetch-site": "same-origin" },
        }),
      ),
    ];
    for (const res of limited) {
      expect(res.status).toBe(429);
      // One token every 6 s, and the clock stands still.
      expect(res.headers.get("retry-after")).toBe("6");
      expect((await res.json()).error).toBe("Too many requests; retry in 6 seconds.");
    }
    // Another IP is not affected; reading the session is not a sign-in route.
    expect((await NONCE(authRequest("nonce", { ip: uniqueIp() }))).status).toBe(200);
    expect((await SESSION(authRequest("session", { ip }))).status).toBe(401);
  });
});
