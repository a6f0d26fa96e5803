// Chaos: 1,000 requests at once from one client against the real /v1 limiter (the Upstash
// client on the real Redis, through the test bridge). Exactly the bucket's 60 pass.
//
// Why this cannot flake on a slow machine: a token bucket refills with time, and
// @upstash/ratelimit takes "now" from Date.now() in this process and hands it to its Redis
// script. The test freezes Date, so however long the burst takes, no refill happens inside it
// and the count is exact. The limiter's own timeout (a setTimeout per call, which would refuse
// a slow call and so let fewer than 60 pass) is faked too and never advanced, so no call can
// time out either. Nothing else in the path waits on a timer.
import { afterEach, describe, expect, it, vi } from "vitest";
import { GET as STATUS } from "@/app/api/v1/status/route";
import { renterRequest } from "@/test/api-requests";
import { makeAgent, makeRental, uniqueIp } from "@/test/fixtures";

afterEach(() => vi.useRealTimers());

describe("1,000 concurrent /v1 requests from one client", () => {
  it("exactly 60 pass, the other 940 get 429 with Retry-After", async () => {
    const rental = await makeRental((await makeAgent()).id);
    const code = rental.id.slice(0, 8);
    const ip = uniqueIp();
    // One request from elsewhere first: a code seen working is no guess, so the burst below is
    // limited by the /v1 bucket alone, not by the budget of failed lookups (10 a minute).
    expect((await STATUS(renterRequest("status", { code }))).status).toBe(200);

    vi.useFakeTimers({ toFake: ["Date", "setTimeout", "clearTimeout"] });
    const responses = await Promise.all(Array.from({ length: 1_000 }, () => STATUS(renterRequest("status", { code, ip }))));

    const passed = responses.filter((res) => res.status === 200);
    const limited = responses.filter((res) => res.status === 429);
    expect(passed).toHaveLength(60);
    expect(limited).toHaveLength(940);
    // Each of the 60 spent its own token: the remaining counts are 59 down to 0, once each.
    const remaining = passed.map((res) => Number(res.headers.get("ratelimit-remaining"))).sort((a, b) => a - b);
    expect(remaining).toEqual(Array.from({ length: 60 }, (_, i) => i));
    for (const res of limited) {
      // The bucket gains its next token one interval (1 s) after it was filled, and the clock stands still.
      expect(res.headers.get("retry-after")).toBe("1");
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
    }
    const bodies = new Set(await Promise.all(limited.map((res) => res.text())));
    expect([...bodies].map((body) => JSON.parse(body))).toEqual([{ error: "Too many requests; retry in 1 second." }]);
  });
});
