import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Receiver } from "@upstash/qstash";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { makeAgent } from "@/test/fixtures";
import { signDelivery } from "@/test/qstash-standin";
import { serveRoutes } from "@/test/serve-routes";

// QStash configured, pointed at the local stand-in (test/qstash-standin.ts), which delivers to this
// file's own server what QStash would deliver to APP_URL; read when lib/env loads, below.
const { standin, keys, target, appUrl } = await vi.hoisted(async () => {
  const { configureQStashStandin } = await import("@/test/qstash-standin");
  return configureQStashStandin();
});

const { POST, maxDuration } = await import("@/app/api/queue/health-checks/route");
const { runHealthChecks } = await import("@/lib/agents/run-health-checks");
const { dispatchBatches } = await import("@/lib/queue/dispatch-batches");

const DESTINATION = `${appUrl}/api/queue/health-checks`;
const token = randomBytes(24).toString("base64url");

// A webhook on a loopback address of its own (127.0.0.1 and 127.0.0.2 are two hosts to the batch
// cutter), answering 200 after `delayMs`, counting the requests it holds at once.
async function hostWebhook(address: string, delayMs: number, status = 200) {
  const received: string[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const server = createServer(async (req, res) => {
    let body = "";
    for await (const chunk of req) body += chunk;
    received.push(JSON.parse(body).agentId);
    maxInFlight = Math.max(maxInFlight, ++inFlight);
    setTimeout(() => {
      inFlight--;
      res.writeHead(status, { "content-type": "application/json" }).end('{"ok":true}');
    }, delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, address, resolve));
  return {
    url: `http://${address}:${(server.address() as AddressInfo).port}/hooks/agent`,
    received,
    maxInFlight: () => maxInFlight,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

type Hook = Awaited<ReturnType<typeof hostWebhook>>;
let app: Awaited<ReturnType<typeof serveRoutes>>;
let busy: Hook;
let other: Hook;
let failing: Hook;

beforeAll(async () => {
  app = await serveRoutes([{ method: "POST", path: /^\/api\/queue\/health-checks$/, handler: POST }]);
  target.origin = app.origin;
  [busy, other, failing] = await Promise.all([hostWebhook("127.0.0.1", 40), hostWebhook("127.0.0.2", 5), hostWebhook("127.0.0.3", 5, 500)]);
});
afterAll(async () => {
  await Promise.all([app.close(), standin.close(), busy.close(), other.close(), failing.close()]);
});

const agentOn = (url: string) => makeAgent({ webhook: { url, token }, listing: { name: `Queued ${randomBytes(4).toString("hex")}` } });
const checksOf = (ids: string[]) => db.healthCheck.findMany({ where: { agentId: { in: ids } } });
const stampOf = async (id: string) => (await db.agent.findUniqueOrThrow({ where: { id } })).lastHealthCheckAt;
const post = (body: string, signature?: string) =>
  POST(
    new Request(DESTINATION, {
      method: "POST",
      headers: { "content-type": "application/json", ...(signature ? { "upstash-signature": signature } : {}) },
      body,
    }),
  );

describe("health-check rounds through QStash (the stand-in)", () => {
  it("dispatches the round as batches by host, each delivered signed, verified and run: every due agent checked once", async () => {
    // 7 agents on one host (more than its 2 at once: batches of its own, 3 at most), 2 on another
    // (few enough to share a batch), 1 failing on a third (shares too; goes offline).
    const many = await Promise.all(Array.from({ length: 7 }, () => agentOn(busy.url)));
    const few = await Promise.all([agentOn(other.url), agentOn(other.url)]);
    const broken = await agentOn(failing.url);
    const all = [...many, ...few, broken];
    const ids = all.map((a) => a.id);

    const summary = await runHealthChecks({ agentIds: ids, hostConcurrency: 2, hostBatchAgents: 3 });
    expect(summary).toMatchObject({ checked: 0, remaining: 0, dispatched: { batches: 4, agents: 10, deduplicated: 0 } });
    await standin.idle();

    // Published as this app asks: one message per batch to its own route, deduplicated by the batch id.
    const round = published(ids);
    expect(round).toHaveLength(4);
    for (const message of round) {
      expect(message.destination).toBe(DESTINATION);
      expect(message.headers["content-type"]).toBe("application/json");
      expect(message.deduplicationId).toBe(JSON.parse(message.body).id);
    }
    const hostBatches = round.filter((m) => m.flowControl?.key.startsWith("host-"));
    expect(hostBatches.map((m) => JSON.parse(m.body).agents.length).sort()).toEqual([1, 3, 3]);
    expect(new Set(hostBatches.map((m) => m.flowControl!.key)).size).toBe(1);
    expect(hostBatches.every((m) => m.flowControl!.parallelism === 1 && JSON.parse(m.body).concurrency <= 2)).toBe(true);
    const shared = round.find((m) => m.flowControl?.key === "health-checks")!;
    expect(new Set(JSON.parse(shared.body).agents)).toEqual(new Set([...few, broken].map((a) => a.id)));

    // Each delivered once, accepted (the official Receiver verified the stand-in's signature).
    const delivered = deliveriesOf(round);
    expect(delivered).toHaveLength(4);
    expect(delivered.every((d) => d.status === 200 && JSON.parse(d.response).taken === true)).toBe(true);

    // Every agent checked exactly once, its result recorded and applied.
    const rows = await checksOf(ids);
    expect(rows.map((r) => r.agentId).sort()).toEqual([...ids].sort());
    expect(rows.every((r) => r.trigger === "schedule")).toBe(true);
    expect([...busy.received, ...other.received, ...failing.received].filter((id) => ids.includes(id)).sort()).toEqual([...ids].sort());
    expect((await db.agent.findUniqueOrThrow({ where: { id: broken.id } })).status).toBe("offline");
    expect(await db.email.count({ where: { idempotencyKey: { startsWith: `agent-offline:${broken.id}:` } } })).toBe(1);

    // Flow control per host: QStash never ran two of the busy host's batches at once, so the host
    // never had more than its 2 checks in flight, however many of its batches were waiting.
    expect(standin.maxInFlight(hostBatches[0].flowControl!.key)).toBe(1);
    expect(busy.maxInFlight()).toBeLessThanOrEqual(2);
  });

  it("checks nothing twice when a batch is delivered again or published again", async () => {
    const agents = await Promise.all([agentOn(other.url), agentOn(other.url), agentOn(busy.url)]);
    const ids = agents.map((a) => a.id);
    await runHealthChecks({ agentIds: ids });
    await standin.idle();
    const round = published(ids);
    expect(round).toHaveLength(1);
    expect(await checksOf(ids)).toHaveLength(3);

    // QStash delivers at least once: the same message again is taken by nobody.
    standin.redeliver(round[0].messageId);
    await standin.idle();
    const again = deliveriesOf(round);
    expect(again).toHaveLength(2);
    expect(again[1]).toMatchObject({ status: 200 });
    expect(JSON.parse(again[1].response)).toMatchObject({ taken: false, checked: 0 });

    // The same batch published again (a retried publish, a cron run repeated): QStash's
    // deduplication keeps it to the one message; no delivery follows.
    const batches = round.map((m) => ({ body: JSON.parse(m.body), hostKey: null }));
    const republished = await dispatchBatches("health-checks", batches, {
      run: () => Promise.reject(new Error("not in-process")),
      concurrency: 1,
    });
    expect(republished).toMatchObject({ transport: "qstash", published: 1, deduplicated: 1, failed: [] });
    await standin.idle();
    expect(deliveriesOf(round)).toHaveLength(2);

    // And a replayed delivery (same body, a fresh valid signature) checks nothing either.
    const replay = await post(round[0].body, signDelivery(keys.current, DESTINATION, round[0].body));
    expect(replay.status).toBe(200);
    expect(await replay.json()).toMatchObject({ taken: false, checked: 0 });

    expect(await checksOf(ids)).toHaveLength(3);
    expect([...busy.received, ...other.received].filter((id) => ids.includes(id))).toHaveLength(3);
  });

  it("401 in JSON for a delivery without QStash's signature, and nothing is checked", async () => {
    const agent = await agentOn(other.url);
    // Claimed by a round whose batch this is: delivered with a valid signature, it would check the agent.
    const round = new Date();
    await db.agent.update({ where: { id: agent.id }, data: { lastHealthCheckAt: round } });
    const body = JSON.stringify({
      id: `health-checks-${round.getTime()}-forged`,
      round: round.toISOString(),
      agents: [agent.id],
      concurrency: 1,
    });
    const otherBody = JSON.stringify({
      id: `health-checks-${round.getTime()}-other`,
      round: round.toISOString(),
      agents: [agent.id],
      concurrency: 1,
    });

    const refused = [
      await post(body), // no signature
      await post(body, "not-a-jwt"),
      await post(body, signDelivery(`sig_${randomBytes(16).toString("hex")}`, DESTINATION, body)), // another key
      await post(body, signDelivery(keys.current, DESTINATION, otherBody)), // another body
      await post(body, signDelivery(keys.current, `${appUrl}/api/queue/probe-rentals`, body)), // another route
      await post(body, signDelivery(keys.current, DESTINATION, body, Math.floor(Date.now() / 1000) - 600)), // expired
    ];
    for (const res of refused) {
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ error: expect.stringMatching(/Upstash-Signature/) });
    }
    expect(other.received).not.toContain(agent.id);
    expect(await checksOf([agent.id])).toHaveLength(0);

    // The same body signed by QStash (with the next key too, as after a key rotation) is accepted.
    const signed = await post(body, signDelivery(keys.next, DESTINATION, body));
    expect(signed.status).toBe(200);
    expect(await signed.json()).toMatchObject({ taken: true, checked: 1, healthy: 1 });
    expect(await checksOf([agent.id])).toHaveLength(1);
    // The official Receiver agrees with the route about the stand-in's signatures.
    const receiver = new Receiver({ currentSigningKey: keys.current, nextSigningKey: keys.next, devMode: false });
    await expect(receiver.verify({ signature: signDelivery(keys.current, DESTINATION, body), body, url: DESTINATION })).resolves.toBe(true);
  });

  it("400 for a signed body that is not a batch, checking nothing", async () => {
    const body = JSON.stringify({ id: "x", agents: ["not-a-uuid"] });
    const res = await post(body, signDelivery(keys.current, DESTINATION, body));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: expect.any(String) });
  });

  it("a batch checks only agents its round still holds: a later round's claim, or a late batch, checks nothing", async () => {
    const agent = await agentOn(other.url);
    const first = new Date(Date.now() - 20 * 60_000);
    const later = new Date();
    await db.agent.update({ where: { id: agent.id }, data: { lastHealthCheckAt: later } });
    const body = JSON.stringify({
      id: `health-checks-${first.getTime()}-late`,
      round: first.toISOString(),
      agents: [agent.id],
      concurrency: 1,
    });
    const res = await post(body, signDelivery(keys.current, DESTINATION, body));
    expect(await res.json()).toMatchObject({ taken: true, checked: 0 });
    expect(await checksOf([agent.id])).toHaveLength(0);
    expect(await stampOf(agent.id)).toEqual(later);
  });

  it("gives the claims of batches QStash refused back: the next round takes them", async () => {
    const agents = await Promise.all([agentOn(other.url), agentOn(other.url)]);
    const ids = agents.map((a) => a.id);
    standin.refusePublishes(1);
    const refused = await runHealthChecks({ agentIds: ids });
    expect(refused).toMatchObject({ remaining: 2, dispatched: { batches: 0, agents: 0 } });
    for (const id of ids) expect(await stampOf(id)).toBeNull();

    expect(await runHealthChecks({ agentIds: ids })).toMatchObject({ remaining: 0, dispatched: { batches: 1, agents: 2 } });
    await standin.idle();
    expect(await checksOf(ids)).toHaveLength(2);
  });

  it("may run for Vercel's longest function time", () => {
    expect(maxDuration).toBe(300);
  });
});

function published(agentIds: string[]) {
  return standin.published.filter((m) => !m.deduplicated && JSON.parse(m.body).agents.some((id: string) => agentIds.includes(id)));
}
function deliveriesOf(messages: { messageId: string }[]) {
  const ids = new Set(messages.map((m) => m.messageId));
  return standin.deliveries.filter((d) => ids.has(d.messageId));
}
