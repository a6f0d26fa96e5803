import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HealthCheckRunOptions, runHealthChecks } from "@/lib/agents/run-health-checks";
import { sealWebhookCredentials } from "@/lib/agents/webhook-credentials";
import { db } from "@/lib/db";
import { makeAgent, startWebhook } from "@/test/fixtures";

// Every run is limited to this file's agents (agentIds): other test files share the database.
const token = randomBytes(24).toString("base64url");
type Webhook = Awaited<ReturnType<typeof startWebhook>>;
let healthy: Webhook;
let failing: Webhook;
let slow: Webhook;
let closedUrl: string;

beforeAll(async () => {
  healthy = await startWebhook((_req, res) => res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}'));
  failing = await startWebhook((_req, res) => res.writeHead(500).end("boom"));
  slow = await startWebhook((_req, res) => void setTimeout(() => res.writeHead(204).end(), 50));
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
  closedUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/hooks/agent`;
  await new Promise((resolve) => closed.close(resolve));
});
afterAll(async () => {
  await Promise.all([healthy, failing, slow].map((hook) => hook.close()));
});

async function agentOn(url: string, status: "available" | "offline" = "available") {
  const agent = await makeAgent({
    webhook: { url, token },
    listing: { name: `Health ${randomBytes(4).toString("hex")}` },
  });
  if (status === "offline") await db.agent.update({ where: { id: agent.id }, data: { status } });
  return agent;
}

const run = (agents: { id: string }[], options: HealthCheckRunOptions = {}) =>
  runHealthChecks({ agentIds: agents.map((a) => a.id), ...options });
const later = (minutes: number) => new Date(Date.now() + minutes * 60_000);
const statusOf = async (id: string) => (await db.agent.findUniqueOrThrow({ where: { id } })).status;
const checksOf = (agentId: string) => db.healthCheck.findMany({ where: { agentId }, orderBy: { id: "asc" } });
const emailsAbout = (event: string, agentId: string) =>
  db.email.findMany({ where: { idempotencyKey: { startsWith: `${event}:${agentId}:` } } });

describe("runHealthChecks", () => {
  it("keeps a healthy agent available, sends no e-mail, and records the check", async () => {
    const agent = await agentOn(healthy.url);
    const summary = await run([agent]);
    expect(summary).toMatchObject({
      checked: 1,
      healthy: 1,
      failed: 0,
      wentOffline: 0,
      cameOnline: 0,
      errors: 0,
      remaining: 0,
    });
    expect(await statusOf(agent.id)).toBe("available");
    expect(await emailsAbout("agent-offline", agent.id)).toHaveLength(0);
    expect(await emailsAbout("agent-online", agent.id)).toHaveLength(0);
    const [check] = await checksOf(agent.id);
    expect(check).toMatchObject({ ok: true, statusCode: 200, error: null, trigger: "schedule" });
    expect(Number.isInteger(check.latencyMs) && check.latencyMs >= 0).toBe(true);
  });

  it("sends the webhook a health_check POST with X-Health-Check, the token and the agent name", async () => {
    const agent = await agentOn(healthy.url);
    const before = Date.now();
    await run([agent]);
    const sent = healthy.received.find((r) => r.body.includes(agent.id))!;
    expect(sent.method).toBe("POST");
    expect(sent.url).toBe("/hooks/agent");
    expect(sent.headers).toMatchObject({
      "x-health-check": "true",
      authorization: `Bearer ${token}`,
      "x-agent-name": agent.name,
      "content-type": "application/json",
    });
    const body = JSON.parse(sent.body);
    expect(body).toEqual({ type: "health_check", timestamp: expect.any(String), agentId: agent.id });
    expect(new Date(body.timestamp).toISOString()).toBe(body.timestamp);
    expect(Date.parse(body.timestamp)).toBeGreaterThanOrEqual(before);
  });

  it("takes an available agent offline on a non-2xx reply and e-mails the owner once, however often it runs", async () => {
    const agent = await agentOn(failing.url);
    const owner = await db.account.findUniqueOrThrow({ where: { id: agent.ownerId } });
    const now = new Date();

    expect(await run([agent], { now })).toMatchObject({ checked: 1, failed: 1, wentOffline: 1 });
    expect(await statusOf(agent.id)).toBe("offline");
    // The same run again (a retried cron call) finds nothing due; a later run finds it already offline.
    expect(await run([agent], { now })).toMatchObject({ checked: 0, wentOffline: 0 });
    expect(await run([agent], { now: later(15) })).toMatchObject({ checked: 1, failed: 1, wentOffline: 0 });

    const emails = await emailsAbout("agent-offline", agent.id);
    expect(emails).toHaveLength(1);
    expect(emails[0]).toMatchObject({ to: owner.email, transport: "outbox", status: "outbox" });
    expect(emails[0].subject).toContain(agent.name);
    expect(emails[0].text).toContain("HTTP 500");
    expect(emails[0].text).toContain("Test connection");
    expect(emails[0].text).toContain(`/dashboard/agents/${agent.id}`);
    expect((await checksOf(agent.id)).map((c) => [c.ok, c.statusCode, c.error])).toEqual([
      [false, 500, "HTTP 500"],
      [false, 500, "HTTP 500"],
    ]);
  });

  it("records a network failure with its reason and no status code", async () => {
    const agent = await agentOn(closedUrl);
    expect(await run([agent])).toMatchObject({ checked: 1, failed: 1, wentOffline: 1 });
    const [check] = await checksOf(agent.id);
    expect(check).toMatchObject({ ok: false, statusCode: null, error: "unreachable: ECONNREFUSED" });
    const [email] = await emailsAbout("agent-offline", agent.id);
    expect(email.text).toContain("unreachable: ECONNREFUSED");
    expect(email.text).not.toContain(closedUrl);
  });

  it("brings an offline agent back on a 2xx reply and e-mails the owner that it recovered", async () => {
    const agent = await agentOn(healthy.url, "offline");
    expect(await run([agent])).toMatchObject({ checked: 1, healthy: 1, cameOnline: 1, wentOffline: 0 });
    expect(await statusOf(agent.id)).toBe("available");
    const emails = await emailsAbout("agent-online", agent.id);
    expect(emails).toHaveLength(1);
    expect(emails[0].subject).toContain("back online");
    expect(emails[0].text).toContain("HTTP 200");
    expect(await emailsAbout("agent-offline", agent.id)).toHaveLength(0);
  });

  it("skips agents without a webhook", async () => {
    const agent = await makeAgent();
    expect(await run([agent])).toMatchObject({ checked: 0, remaining: 0 });
    expect((await db.agent.findUniqueOrThrow({ where: { id: agent.id } })).lastHealthCheckAt).toBeNull();
    expect(await checksOf(agent.id)).toHaveLength(0);
  });

  it("still takes the agent offline when its owner has no e-mail address, without sending one", async () => {
    const agent = await agentOn(failing.url);
    await db.account.update({ where: { id: agent.ownerId }, data: { email: null } });
    expect(await run([agent])).toMatchObject({ wentOffline: 1 });
    expect(await statusOf(agent.id)).toBe("offline");
    expect(await emailsAbout("agent-offline", agent.id)).toHaveLength(0);
  });

  it("checks each agent exactly once when two runs start at once", async () => {
    const agents = await Promise.all(Array.from({ length: 12 }, () => agentOn(slow.url)));
    const ids = new Set(agents.map((a) => a.id));
    const options = { batchSize: 2, concurrency: 3 };
    const [a, b] = await Promise.all([run(agents, options), run(agents, options)]);
    // Which run claims which agents is the machine's timing: on a busy one, one run may claim all
    // twelve before the other's first claim (seen in CI), so only the sum is certain.
    expect(a.checked + b.checked).toBe(12);
    const rows = await db.healthCheck.groupBy({ by: ["agentId"], where: { agentId: { in: [...ids] } }, _count: true });
    expect(rows).toHaveLength(12);
    expect(rows.every((r) => r._count === 1)).toBe(true);
    expect(slow.received.filter((r) => ids.has(JSON.parse(r.body).agentId))).toHaveLength(12);
    // Checked within the last 14 minutes: not due again.
    expect(await run(agents)).toMatchObject({ checked: 0 });
  });

  it("stops claiming when its time budget cannot fit another check, and reports what is left", async () => {
    const agents = await Promise.all([agentOn(healthy.url), agentOn(healthy.url), agentOn(healthy.url)]);
    // A budget under two timeouts leaves no room for a check that might take the full timeout.
    expect(await run(agents, { budgetMs: 1_000 })).toMatchObject({ checked: 0, remaining: 3 });
    const stamps = await db.agent.findMany({
      where: { id: { in: agents.map((a) => a.id) } },
      select: { lastHealthCheckAt: true },
    });
    expect(stamps.every((s) => s.lastHealthCheckAt === null)).toBe(true);
    expect(await run(agents)).toMatchObject({ checked: 3, remaining: 0 });
  });

  it("stops claiming once the budget cannot fit another round of timeouts, leaving the rest due for the next run", async () => {
    // A clock that only moves when a check arrives, each taking a full timeout: no part of the
    // outcome depends on how fast this machine is.
    let clockMs = 0;
    const timeoutMs = Number(process.env.HEALTH_CHECK_TIMEOUT_MS);
    const hook = await startWebhook((_req, res) => {
      clockMs += timeoutMs;
      res.writeHead(200).end();
    });
    try {
      const agents = await Promise.all(Array.from({ length: 5 }, () => agentOn(hook.url)));
      const options = { concurrency: 1, batchSize: 1, budgetMs: 4 * timeoutMs, clock: () => clockMs };
      // Claims at 0, 1 and 2 timeouts, each leaving a round in flight; at 3 no round is left.
      expect(await run(agents, options)).toMatchObject({ checked: 3, remaining: 2 });
      const stamps = await db.agent.findMany({ where: { id: { in: agents.map((a) => a.id) } }, select: { lastHealthCheckAt: true } });
      expect(stamps.filter((s) => s.lastHealthCheckAt === null)).toHaveLength(2);
      expect(await run(agents, options)).toMatchObject({ checked: 2, remaining: 0 });
      expect(hook.received).toHaveLength(5);
    } finally {
      await hook.close();
    }
  });

  it("records exactly one check per agent, a batch at a time, with each outcome as it was", async () => {
    const agents = await Promise.all([
      ...Array.from({ length: 4 }, () => agentOn(healthy.url)),
      ...Array.from({ length: 3 }, () => agentOn(failing.url)),
      agentOn(closedUrl),
    ]);
    const before = Date.now();
    // Three agents a batch: three claims and three recording statements for the eight checks.
    expect(await run(agents, { batchSize: 3, concurrency: 2 })).toMatchObject({ checked: 8, healthy: 4, failed: 4, errors: 0 });
    const rows = await db.healthCheck.findMany({ where: { agentId: { in: agents.map((a) => a.id) } } });
    expect(rows.map((r) => r.agentId).sort()).toEqual(agents.map((a) => a.id).sort());
    const outcome = (agentId: string) => {
      const { ok, statusCode, error, trigger } = rows.find((r) => r.agentId === agentId)!;
      return { ok, statusCode, error, trigger };
    };
    expect(agents.map((a) => outcome(a.id))).toEqual([
      ...Array.from({ length: 4 }, () => ({ ok: true, statusCode: 200, error: null, trigger: "schedule" })),
      ...Array.from({ length: 3 }, () => ({ ok: false, statusCode: 500, error: "HTTP 500", trigger: "schedule" })),
      { ok: false, statusCode: null, error: "unreachable: ECONNREFUSED", trigger: "schedule" },
    ]);
    for (const row of rows) {
      expect(row.createdAt.getTime()).toBeGreaterThanOrEqual(before);
      expect(row.createdAt.getTime()).toBeLessThanOrEqual(Date.now());
      expect(Number.isInteger(row.latencyMs) && row.latencyMs >= 0).toBe(true);
    }
  });

  // A check that throws is a failed check: before, it was counted as an `error` and the broken
  // agent stayed `available`, taking rentals it could never serve, with nobody told.
  it("takes an agent whose credentials do not decrypt offline, records the failure and e-mails the owner", async () => {
    const agent = await agentOn(healthy.url);
    const other = await agentOn(healthy.url);
    // Another row's ciphertexts: authenticated encryption refuses them (bound to their agent).
    await db.agent.update({
      where: { id: agent.id },
      data: sealWebhookCredentials(other.id, { url: healthy.url, token }),
    });
    expect(await run([agent])).toMatchObject({ checked: 1, failed: 1, wentOffline: 1, errors: 0 });
    expect(await statusOf(agent.id)).toBe("offline");
    const [check] = await checksOf(agent.id);
    expect(check).toMatchObject({ ok: false, statusCode: null, trigger: "schedule" });
    expect(check.error).toContain("connect the webhook again");
    const emails = await emailsAbout("agent-offline", agent.id);
    expect(emails).toHaveLength(1);
    expect(emails[0].text).toContain("connect the webhook again");
  });

  it("takes an agent offline when its check throws while being sent, and e-mails the owner", async () => {
    // A token no HTTP client accepts in a header (the API refuses it; old or hand-written rows may not).
    const agent = await agentOn(healthy.url);
    await db.agent.update({
      where: { id: agent.id },
      data: sealWebhookCredentials(agent.id, { url: healthy.url, token: "bad\r\ntoken" }),
    });
    expect(await run([agent])).toMatchObject({ checked: 1, failed: 1, wentOffline: 1, errors: 0 });
    expect(await statusOf(agent.id)).toBe("offline");
    const [check] = await checksOf(agent.id);
    expect(check).toMatchObject({ ok: false, statusCode: null });
    expect(check.error).toMatch(/^internal: the check could not be sent/);
    expect(check.error).not.toContain("bad");
    expect(await emailsAbout("agent-offline", agent.id)).toHaveLength(1);
    expect(healthy.received.some((r) => r.body.includes(agent.id))).toBe(false);
  });

  it("keeps an offline agent whose credentials do not decrypt offline, without another e-mail", async () => {
    const agent = await agentOn(healthy.url, "offline");
    await db.agent.update({ where: { id: agent.id }, data: { webhookTokenCipher: "t1:garbage" } });
    expect(await run([agent])).toMatchObject({ checked: 1, failed: 1, wentOffline: 0, cameOnline: 0 });
    expect(await statusOf(agent.id)).toBe("offline");
    expect(await emailsAbout("agent-offline", agent.id)).toHaveLength(0);
  });
});
