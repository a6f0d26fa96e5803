// The OpenAI-compatible route shares /v1's one rate-limit bucket per client: once /v1/status has
// emptied it, its 429 comes in OpenAI's shape with Retry-After.
import { describe, expect, it } from "vitest";
import { POST } from "@/app/api/v1/chat/completions/route";
import { GET as status } from "@/app/api/v1/status/route";
import { renterRequest } from "@/test/api-requests";
import { makeAgent, makeRental, uniqueIp } from "@/test/fixtures";

describe("POST /api/v1/chat/completions", () => {
  it("spends from the same bucket as /v1/status: once status has emptied it, the 429 comes in OpenAI's shape with Retry-After", async () => {
    const code = (await makeRental((await makeAgent()).id)).id.slice(0, 8);
    const ip = uniqueIp();
    const ask = () =>
      POST(
        renterRequest("chat/completions", { code, ip, auth: "bearer", body: { model: "m", messages: [{ role: "user", content: "hi" }] } }),
      );
    // The bucket refills a token a second: status empties it, the next request finds it empty. On a
    // machine slow enough for a token to come back in between, the round is repeated (never
    // assumed to be fast).
    let res: Response | undefined;
    for (let round = 0; round < 5 && res?.status !== 429; round++) {
      while ((await status(renterRequest("status", { code, ip }))).status !== 429);
      res = await ask();
    }
    expect(res!.status).toBe(429);
    expect(Number(res!.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(res!.headers.get("access-control-allow-origin")).toBe("*");
    expect(await res!.json()).toEqual({
      error: { message: expect.any(String), type: "rate_limit_error", param: null, code: "rate_limit_exceeded" },
    });
  });

  it("400 in OpenAI's shape for a conversation without a user message, or one too long", async () => {
    const code = (await makeRental((await makeAgent()).id)).id.slice(0, 8);
    const ask = (messages: unknown) => POST(renterRequest("chat/completions", { code, body: { model: "m", messages } }));
    const none = await ask([{ role: "system", content: "Be brief." }]);
    expect(none.status).toBe(400);
    expect((await none.json()).error).toMatchObject({ type: "invalid_request_error", message: expect.stringContaining("role user") });
    const long = await ask([{ role: "user", content: "x".repeat(10_001) }]);
    expect((await long.json()).error.message).toBe("messages: the last user message's text must be at most 10,000 characters");
  });
});
