import { randomBytes } from "node:crypto";
import { Webhook as SignatureVerifier } from "standardwebhooks";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { GET, POST } from "@/app/api/public/agents/[id]/connect/route";
import { POST as ROTATE } from "@/app/api/public/agents/[id]/signing-secret/route";
import { openWebhookCredentials } from "@/lib/agents/webhook-credentials";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import type { AgentListingInput } from "@/lib/schemas/agent-listing";
import { ownerRequest } from "@/test/api-requests";
import { makeOwnerAgent, makeOwnerWithKey, segment, startWebhook } from "@/test/fixtures";

type Webhook = Awaited<ReturnType<typeof startWebhook>>;
const token = randomBytes(32).toString("base64url");

// One server, its behaviour chosen by the path, so each test connects to the reply it needs.
let hook: Webhook;
beforeAll(async () => {
  hook = await startWebhook((req, res) => {
    switch (req.url) {
      case "/fail":
        return res.writeHead(500).end("down");
      case "/redirect":
        return res.writeHead(307, { location: "http://127.0.0.1:1/hooks/agent" }).end();
      case "/drop":
        return res.socket?.destroy();
      case "/hang":
        return; // never answers: the health check's timeout ends it
      default:
        return res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
    }
  });
});
afterAll(async () => {
  await hook.close();
});
afterEach(() => vi.useRealTimers());

const url = (path: string) => hook.url.replace("/hooks/agent", path);

async function connect(path: string, options: { listing?: Partial<AgentListingInput> } = {}) {
  const { accountId, apiKey } = await makeOwnerWithKey();
  const agent = await makeOwnerAgent(accountId, { listing: options.listing });
  const res = await POST(
    ownerRequest(`agents/${agent.id}/connect`, { key: apiKey, body: { webhookUrl: url(path), webhookToken: token } }),
    segment(agent.id),
  );
  return { res, agent, apiKey, body: res.status === 200 ? await res.json() : null };
}

describe("POST /api/public/agents/{id}/connect", () => {
  it("200: a 2xx test makes the agent available; credentials are stored encrypted; the check is recorded", async () => {
    const { res, agent, body } = await connect("/hooks/agent");
    expect(res.status).toBe(200);
    expect(body.test).toEqual({ ok: true, statusCode: 200, error: null, latencyMs: expect.any(Number), reason: null, nextStep: null });
    expect(body.agent).toMatchObject({ id: agent.id, status: "available", webhookConnected: true, notRentableReason: null });
    expect(JSON.stringify(body)).not.toContain(token);
    expect(JSON.stringify(body)).not.toContain("127.0.0.1");

    const row = await db.agent.findUniqueOrThrow({ where: { id: agent.id } });
    expect(row.webhookUrlCipher).not.toContain("127.0.0.1");
    expect(row.webhookTokenCipher).not.toContain(token);
    // The listing's first connect hands out its signing secret, once; it is stored encrypted.
    expect(body.signingSecret).toMatch(/^whsec_/);
    expect(row.webhookSigningSecretCipher).not.toContain(body.signingSecret.slice(6));
    expect(openWebhookCredentials(agent.id, row)).toEqual({ url: url("/hooks/agent"), token, signingSecret: body.signingSecret });
    const checks = await db.healthCheck.findMany({ where: { agentId: agent.id } });
    expect(checks).toEqual([expect.objectContaining({ ok: true, statusCode: 200, error: null, trigger: "connect" })]);
  });

  it("a second connect keeps the signing secret unseen; rotating answers a new one that signs every call from then on", async () => {
    const { agent, apiKey, body } = await connect("/hooks/agent");
    const reconnect = () =>
      POST(
        ownerRequest(`agents/${agent.id}/connect`, { key: apiKey, body: { webhookUrl: url("/hooks/agent"), webhookToken: token } }),
        segment(agent.id),
      );
    expect((await (await reconnect()).json()).signingSecret).toBeUndefined();

    const rotated = await ROTATE(ownerRequest(`agents/${agent.id}/signing-secret`, { key: apiKey, method: "POST" }), segment(agent.id));
    expect(rotated.status).toBe(200);
    const { signingSecret } = await rotated.json();
    expect(signingSecret).toMatch(/^whsec_/);
    expect(signingSecret).not.toBe(body.signingSecret);
    const before = hook.received.length;
    await reconnect();
    const sent = hook.received.slice(before).find((r) => r.body.includes(agent.id))!;
    const headers = sent.headers as Record<string, string>;
    expect(new SignatureVerifier(signingSecret).verify(sent.body, headers)).toMatchObject({ type: "health_check" });
    expect(() => new SignatureVerifier(body.signingSecret).verify(sent.body, headers)).toThrow();

    const stranger = await makeOwnerWithKey();
    const refused = await ROTATE(
      ownerRequest(`agents/${agent.id}/signing-secret`, { key: stranger.apiKey, method: "POST" }),
      segment(agent.id),
    );
    expect(refused.status).toBe(404);
    const bare = await makeOwnerAgent(stranger.accountId);
    const early = await ROTATE(
      ownerRequest(`agents/${bare.id}/signing-secret`, { key: stranger.apiKey, method: "POST" }),
      segment(bare.id),
    );
    expect(early.status).toBe(409);
  });

  it("sends the webhook a health check: X-Health-Check, the token, the agent name, a health_check body", async () => {
    const before = hook.received.length;
    // Date stands still (timers do not), so the timestamp sent is exactly this test's "now".
    vi.useFakeTimers({ toFake: ["Date"] });
    const now = new Date().toISOString();
    const { agent } = await connect("/hooks/agent", { listing: { name: "Health Probe" } });
    const sent = hook.received.slice(before).find((r) => r.body.includes(agent.id))!;
    expect(sent.method).toBe("POST");
    expect(sent.url).toBe("/hooks/agent");
    expect(sent.headers["x-health-check"]).toBe("true");
    expect(sent.headers.authorization).toBe(`Bearer ${token}`);
    expect(sent.headers["x-agent-name"]).toBe("Health Probe");
    expect(sent.headers["content-type"]).toBe("application/json");
    const payload = JSON.parse(sent.body);
    expect(payload).toEqual({ type: "health_check", timestamp: now, agentId: agent.id });
    expect(sent.headers["webhook-id"]).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(sent.headers["webhook-timestamp"]).toBe(String(Math.floor(Date.parse(now) / 1000)));
    expect(sent.headers["webhook-signature"]).toMatch(/^v1,/);
  });

  it("200 with the agent offline: the webhook answers 500", async () => {
    const { res, agent, body } = await connect("/fail");
    expect(res.status).toBe(200);
    expect(body.test).toEqual({
      ok: false,
      statusCode: 500,
      error: "HTTP 500",
      latencyMs: expect.any(Number),
      reason: "Your webhook answered HTTP 500: an error in your agent's server.",
      nextStep: "Look in your agent's logs for the error, fix it, then test again.",
    });
    expect(body.agent).toMatchObject({ status: "offline", webhookConnected: true, notRentableReason: "offline" });
    expect(await db.healthCheck.findFirst({ where: { agentId: agent.id } })).toMatchObject({
      ok: false,
      statusCode: 500,
      trigger: "connect",
    });
  });

  it("200 with the agent offline: a redirect is not followed", async () => {
    const before = hook.received.length;
    const { body } = await connect("/redirect");
    expect(body.test).toMatchObject({ ok: false, statusCode: 307 });
    expect(body.agent.status).toBe("offline");
    expect(hook.received.slice(before).map((r) => r.url)).toEqual(["/redirect"]);
  });

  it("200 with the agent offline: the connection drops, or is refused", async () => {
    const dropped = await connect("/drop");
    expect(dropped.body.test).toMatchObject({
      ok: false,
      statusCode: null,
      error: expect.stringMatching(/^unreachable: /),
    });
    expect(dropped.body.agent.status).toBe("offline");

    const gone = await startWebhook((_req, res) => res.end());
    await gone.close();
    const { accountId, apiKey } = await makeOwnerWithKey();
    const agent = await makeOwnerAgent(accountId);
    const res = await POST(
      ownerRequest(`agents/${agent.id}/connect`, { key: apiKey, body: { webhookUrl: gone.url, webhookToken: token } }),
      segment(agent.id),
    );
    const body = await res.json();
    expect(body.test).toMatchObject({
      ok: false,
      statusCode: null,
      error: "unreachable: ECONNREFUSED",
      reason: "The connection was refused: nothing is listening at that address and port.",
    });
    expect(body.agent).toMatchObject({ status: "offline", webhookConnected: true });
  });

  it(
    "200 with the agent offline: no reply within HEALTH_CHECK_TIMEOUT_MS",
    async () => {
      const { body } = await connect("/hang");
      expect(body.test).toMatchObject({ ok: false, statusCode: null, error: expect.stringMatching(/^timeout: /) });
      expect(body.test.latencyMs).toBeGreaterThanOrEqual(env.HEALTH_CHECK_TIMEOUT_MS - 50);
      expect(body.agent.status).toBe("offline");
    },
    env.HEALTH_CHECK_TIMEOUT_MS + 10_000,
  );

  it("200: an offline agent comes back when connected to a working webhook, with the signing secret it was first given", async () => {
    const { agent, apiKey, body: failed } = await connect("/fail");
    // The set-up is not over while no test has passed: each connect answers the secret again.
    expect(failed.signingSecret).toMatch(/^whsec_/);
    const reconnect = async (path: string) => {
      const res = await POST(
        ownerRequest(`agents/${agent.id}/connect`, { key: apiKey, body: { webhookUrl: url(path), webhookToken: token } }),
        segment(agent.id),
      );
      return res.json();
    };
    expect((await reconnect("/fail")).signingSecret).toBe(failed.signingSecret);
    const fixed = await reconnect("/hooks/agent");
    expect(fixed.agent.status).toBe("available");
    expect(fixed.signingSecret).toBe(failed.signingSecret);
    // Passed once: from then on only a rotation shows one, whatever later tests do.
    expect((await reconnect("/fail")).signingSecret).toBeUndefined();
    expect((await reconnect("/hooks/agent")).signingSecret).toBeUndefined();
    expect(await db.healthCheck.count({ where: { agentId: agent.id } })).toBe(5);
  });

  it("400: webhookUrl and webhookToken are validated; nothing is stored or called", async () => {
    const { accountId, apiKey } = await makeOwnerWithKey();
    const agent = await makeOwnerAgent(accountId);
    const good = { webhookUrl: url("/hooks/agent"), webhookToken: token };
    const cases: [unknown, RegExp][] = [
      [{ webhookToken: token }, /^webhookUrl: is required$/],
      [{ ...good, webhookUrl: "agent.example.com/hooks/agent" }, /^webhookUrl: must be a full http\(s\) URL/],
      [{ ...good, webhookUrl: "ftp://agent.example.com/hooks" }, /^webhookUrl: must be a full http\(s\) URL/],
      [{ ...good, webhookUrl: 42 }, /^webhookUrl: must be a full http\(s\) URL/],
      [{ ...good, webhookUrl: `https://agent.example.com/${"a".repeat(2048)}` }, /^webhookUrl: must be at most 2048 characters$/],
      [{ ...good, webhookUrl: "https://me:pw@agent.example.com/hooks" }, /^webhookUrl: must not contain a user name or password/],
      [{ webhookUrl: good.webhookUrl }, /^webhookToken: is required$/],
      [{ ...good, webhookToken: "x".repeat(31) }, /^webhookToken: must be at least 32 characters/],
      [{ ...good, webhookToken: "x".repeat(513) }, /^webhookToken: must be at most 512 characters$/],
      [{ ...good, webhookToken: `${"x".repeat(32)} y` }, /^webhookToken: must be printable ASCII without spaces$/],
      [{ ...good, webhookToken: `${"x".repeat(32)}\n` }, /^webhookToken: must be printable ASCII/],
      [{ ...good, webhookToken: 12345 }, /^webhookToken: must be a string$/],
      [{ ...good, agentName: "x" }, /^unknown field "agentName"; the fields are webhookUrl, webhookToken$/],
      [[good], /the body must be a JSON object/],
    ];
    const before = hook.received.length;
    for (const [body, error] of cases) {
      const res = await POST(ownerRequest(`agents/${agent.id}/connect`, { key: apiKey, body }), segment(agent.id));
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect((await res.json()).error, JSON.stringify(body).slice(0, 80)).toMatch(error);
    }
    expect(hook.received.length).toBe(before);
    const row = await db.agent.findUniqueOrThrow({ where: { id: agent.id } });
    expect([row.webhookUrlCipher, row.status]).toEqual([null, "available"]);
  });

  it("400: plain http in production, unless private webhooks are allowed", async () => {
    const { accountId, apiKey } = await makeOwnerWithKey();
    const agent = await makeOwnerAgent(accountId);
    const saved = { NODE_ENV: env.NODE_ENV, ALLOW_PRIVATE_WEBHOOKS: env.ALLOW_PRIVATE_WEBHOOKS };
    const send = () =>
      POST(
        ownerRequest(`agents/${agent.id}/connect`, {
          key: apiKey,
          body: { webhookUrl: url("/hooks/agent"), webhookToken: token },
        }),
        segment(agent.id),
      );
    try {
      Object.assign(env, { NODE_ENV: "production", ALLOW_PRIVATE_WEBHOOKS: false });
      const res = await send();
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ error: "webhookUrl: must be an https URL" });
      Object.assign(env, { ALLOW_PRIVATE_WEBHOOKS: true });
      expect((await send()).status).toBe(200);
    } finally {
      Object.assign(env, saved);
    }
  });

  it("404: another account's agent is neither connected nor called", async () => {
    const { apiKey } = await makeOwnerWithKey();
    const theirs = await makeOwnerAgent((await makeOwnerWithKey()).accountId);
    const before = hook.received.length;
    for (const id of [theirs.id, "x"]) {
      const res = await POST(
        ownerRequest(`agents/${id}/connect`, {
          key: apiKey,
          body: { webhookUrl: url("/hooks/agent"), webhookToken: token },
        }),
        segment(id),
      );
      expect(res.status).toBe(404);
    }
    expect(hook.received.length).toBe(before);
    expect((await db.agent.findUniqueOrThrow({ where: { id: theirs.id } })).webhookUrlCipher).toBeNull();
  });

  it("401: without a valid key", async () => {
    const agent = await makeOwnerAgent((await makeOwnerWithKey()).accountId);
    const res = await POST(
      ownerRequest(`agents/${agent.id}/connect`, { body: { webhookUrl: url("/hooks/agent"), webhookToken: token } }),
      segment(agent.id),
    );
    expect(res.status).toBe(401);
  });

  it("405 for GET", async () => {
    const res = GET();
    expect(res.status).toBe(405);
    expect((await res.json()).error).toMatch(/POST/);
  });
});
