import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as CONNECT } from "@/app/api/public/agents/[id]/connect/route";
import { POST as CHAT } from "@/app/api/v1/chat/route";
import { runHealthChecks } from "@/lib/agents/run-health-checks";
import { db } from "@/lib/db";
import { agentNameHeaders } from "@/lib/webhooks/agent-name-headers";
import { ownerRequest, renterRequest } from "@/test/api-requests";
import { makeOwnerAgent, makeOwnerWithKey, makeRental, type ReceivedRequest, segment, startWebhook } from "@/test/fixtures";

// What docs/webhooks.md tells an owner to do with the two headers.
function decodedAgentName(headers: ReceivedRequest["headers"]): string {
  const value = headers["x-agent-name"] as string;
  return headers["x-agent-name-encoding"] === "percent" ? decodeURIComponent(value) : value;
}

describe("agentNameHeaders", () => {
  it.each(["Echo Agent", "R2-D2 (beta) 100% [v1.2] ~bot~", "a\"b'c;d,e"])("sends the printable ASCII name %j as it is", (name) => {
    expect(agentNameHeaders(name)).toEqual({ "X-Agent-Name": name });
  });

  it.each([
    ["Bot — 24/7", "Bot%20%E2%80%94%2024%2F7"],
    ["Café", "Caf%C3%A9"],
    ["日本語エージェント", "%E6%97%A5%E6%9C%AC%E8%AA%9E%E3%82%A8%E3%83%BC%E3%82%B8%E3%82%A7%E3%83%B3%E3%83%88"],
    ["🤖 Helper", "%F0%9F%A4%96%20Helper"],
    ["two\nlines", "two%0Alines"],
    [" padded ", "%20padded%20"],
  ])("percent-encodes the UTF-8 of %j and says so", (name, encoded) => {
    expect(agentNameHeaders(name)).toEqual({ "X-Agent-Name": encoded, "X-Agent-Name-Encoding": "percent" });
    expect(decodeURIComponent(encoded)).toBe(name);
  });

  it("survives a lone surrogate (sent as U+FFFD, as the database stores it)", () => {
    expect(agentNameHeaders("bad \ud800 name")["X-Agent-Name"]).toBe("bad%20%EF%BF%BD%20name");
  });

  it("always produces values an HTTP client accepts", () => {
    for (const name of ["Bot — 24/7", "日本語エージェント", "🤖 Helper", "tab\there", "\u0000nul", "ÿ"]) {
      for (const value of Object.values(agentNameHeaders(name))) expect(value).toMatch(/^[\x21-\x7e]+$/);
    }
  });
});

// The whole path, against a real local webhook: before the encoding, each of these names made
// the HTTP client throw (ERR_INVALID_CHAR), so every chat (500), connect (500) and health check
// (a silent error) of the agent failed.
describe("an agent named outside Latin-1", () => {
  const token = randomBytes(32).toString("base64url");
  let hook: Awaited<ReturnType<typeof startWebhook>>;
  beforeAll(async () => {
    hook = await startWebhook((req, res) => {
      const reply = req.body.includes('"health_check"') ? { ok: true } : `Hello from ${decodedAgentName(req.headers)}`;
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(reply));
    });
  });
  afterAll(() => hook.close());

  const sentFor = (agentId: string, type: string) =>
    hook.received.filter((r) => r.body.includes(agentId) && JSON.parse(r.body).type === type);

  it.each(["Bot — 24/7", "日本語エージェント", "🤖 Helper"])("%s connects, chats and passes its health checks", async (name) => {
    const { accountId, apiKey } = await makeOwnerWithKey();
    const agent = await makeOwnerAgent(accountId, { listing: { name } });
    expect(agent.name).toBe(name);

    // Connect: the test health check reaches the webhook and the agent becomes available.
    const connected = await CONNECT(
      ownerRequest(`agents/${agent.id}/connect`, {
        key: apiKey,
        body: { webhookUrl: hook.url, webhookToken: token },
      }),
      segment(agent.id),
    );
    expect(connected.status).toBe(200);
    expect((await connected.json()).test).toMatchObject({ ok: true, statusCode: 200, error: null });
    const [connectCheck] = sentFor(agent.id, "health_check");
    expect(connectCheck.headers["x-agent-name-encoding"]).toBe("percent");
    expect(decodedAgentName(connectCheck.headers)).toBe(name);
    expect(connectCheck.headers["x-health-check"]).toBe("true");

    // Chat: the message is delivered with the decodable name, the reply comes back.
    const rental = await makeRental(agent.id);
    const chat = await CHAT(renterRequest("chat", { code: rental.id.slice(0, 8), body: { message: "hi" } }));
    expect(chat.status).toBe(200);
    expect(await chat.json()).toMatchObject({ success: true, agent: name, response: `Hello from ${name}` });
    const [message] = sentFor(agent.id, "message");
    expect(decodedAgentName(message.headers)).toBe(name);
    expect(message.headers["x-rental-ref"]).toBe((await db.rental.findUniqueOrThrow({ where: { id: rental.id } })).ref);

    // Periodic health check: passes, the agent stays available.
    const summary = await runHealthChecks({ agentIds: [agent.id], now: new Date(Date.now() + 15 * 60_000) });
    expect(summary).toMatchObject({ checked: 1, healthy: 1, failed: 0, errors: 0 });
    const checks = sentFor(agent.id, "health_check");
    expect(checks).toHaveLength(2);
    expect(decodedAgentName(checks[1].headers)).toBe(name);
    expect((await db.agent.findUniqueOrThrow({ where: { id: agent.id } })).status).toBe("available");
    const recorded = await db.healthCheck.findMany({ where: { agentId: agent.id }, orderBy: { id: "asc" } });
    expect(recorded.map((c) => [c.trigger, c.ok])).toEqual([
      ["connect", true],
      ["schedule", true],
    ]);
  });

  it("a plain ASCII name is still sent as it is, without the encoding header", async () => {
    const { accountId, apiKey } = await makeOwnerWithKey();
    const agent = await makeOwnerAgent(accountId, { listing: { name: "Plain 100% Agent" } });
    const res = await CONNECT(
      ownerRequest(`agents/${agent.id}/connect`, { key: apiKey, body: { webhookUrl: hook.url, webhookToken: token } }),
      segment(agent.id),
    );
    expect(res.status).toBe(200);
    const [check] = sentFor(agent.id, "health_check");
    expect(check.headers["x-agent-name"]).toBe("Plain 100% Agent");
    expect(check.headers["x-agent-name-encoding"]).toBeUndefined();
  });
});
