// The playground's requests against the real POST /api/v1/chat handler and a real local webhook:
// what it sends is what the API takes, and every answer becomes a reply or a sentence.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST } from "@/app/api/v1/chat/route";
import { describeChatError, sendChatMessage } from "@/lib/rentals/chat-client";
import { makeAgent, makeRental, startWebhook, uniqueIp } from "@/test/fixtures";

type Webhook = Awaited<ReturnType<typeof startWebhook>>;
let hook: Webhook;
let agent: Awaited<ReturnType<typeof makeAgent>>;

beforeAll(async () => {
  hook = await startWebhook((req, res) => {
    const { message } = JSON.parse(req.body);
    if (message === "json")
      return res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ text: "hi", cards: [1, 2] }));
    if (message === "fail") return res.writeHead(500).end("boom");
    return res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(`Echo: ${message}`));
  });
  agent = await makeAgent({ webhook: { url: hook.url, token: randomBytes(24).toString("base64url") } });
});

afterAll(async () => {
  await hook?.close();
});

/** fetch as the browser would do it, answered by the route handler itself (one client IP per test). */
function fetchThroughRoute(ip = uniqueIp()): typeof fetch {
  return async (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set("x-forwarded-for", ip);
    return POST(new Request(new URL(String(input), "http://localhost"), { method: init?.method, headers, body: init?.body }));
  };
}

describe("the chat playground's requests", () => {
  it("sends the rental code as X-API-Key and shows a string reply as text", async () => {
    const rental = await makeRental(agent.id);
    const result = await sendChatMessage(rental.id.slice(0, 8), "hello there", fetchThroughRoute());
    expect(result).toEqual({ ok: true, reply: "Echo: hello there", json: false });
    expect(hook.received.at(-1)!.body).toContain("hello there");
  });

  it("pretty-prints a JSON reply", async () => {
    const rental = await makeRental(agent.id);
    const result = await sendChatMessage(rental.id.slice(0, 8), "json", fetchThroughRoute());
    expect(result).toEqual({ ok: true, reply: JSON.stringify({ text: "hi", cards: [1, 2] }, null, 2), json: true });
  });

  it("puts 401, 403 and 502 answers in words, with the server's message", async () => {
    const ended = await makeRental(agent.id, { startsInSeconds: -7200, endsInSeconds: -60 });
    const forbidden = await sendChatMessage(ended.id.slice(0, 8), "hi", fetchThroughRoute());
    expect(forbidden).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^This rental cannot be used right now \(403\).*The server said: “/),
    });

    const unknown = await sendChatMessage("00000000", "hi", fetchThroughRoute());
    expect(unknown).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^The rental code was not accepted \(401\)/),
    });

    const rental = await makeRental(agent.id);
    const failed = await sendChatMessage(rental.id.slice(0, 8), "fail", fetchThroughRoute());
    expect(failed).toMatchObject({ ok: false, error: expect.stringMatching(/\(502\)/) });
  });

  it("says what 429, 503, odd answers and network failures mean", async () => {
    expect(describeChatError(429, "Too many requests; retry in 7 seconds.", "7")).toBe(
      "Too many requests (429). Wait 7 seconds and send again.",
    );
    expect(describeChatError(503, null, null)).toMatch(/could not be reached \(503\)/);
    const offline = await sendChatMessage("abcdef12", "hi", async () => {
      throw new TypeError("Failed to fetch");
    });
    expect(offline).toEqual({ ok: false, error: "Could not reach the server. Check your connection and send again." });
    const odd = await sendChatMessage("abcdef12", "hi", async () => new Response("<html>", { status: 200 }));
    expect(odd).toMatchObject({ ok: false, error: expect.stringMatching(/not with a reply/) });
  });
});
