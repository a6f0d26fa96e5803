import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { newSigningSecret } from "@/lib/agents/webhook-credentials";
import { countMinutes } from "@/lib/availability/minute-runs";
import { db } from "@/lib/db";
import { makeAgent, makeRental, startWebhook } from "@/test/fixtures";
import { signDelivery } from "@/test/qstash-standin";
import { serveRoutes } from "@/test/serve-routes";

// QStash configured, pointed at the local stand-in (test/qstash-standin.ts), which delivers to this
// file's own server what QStash would deliver to APP_URL; read when lib/env loads, below.
const { standin, keys, target, appUrl } = await vi.hoisted(async () => {
  const { configureQStashStandin } = await import("@/test/qstash-standin");
  return configureQStashStandin();
});

const { POST, maxDuration } = await import("@/app/api/queue/probe-rentals/route");
const { probeRentals } = await import("@/lib/availability/probe-rentals");

const DESTINATION = `${appUrl}/api/queue/probe-rentals`;
let app: Awaited<ReturnType<typeof serveRoutes>>;
let hook: Awaited<ReturnType<typeof startWebhook>>;

beforeAll(async () => {
  app = await serveRoutes([{ method: "POST", path: /^\/api\/queue\/probe-rentals$/, handler: POST }]);
  target.origin = app.origin;
  hook = await startWebhook((req, res) => res.writeHead(JSON.parse(req.body).agentId === failingId ? 500 : 200).end("ok"));
});
afterAll(async () => {
  await Promise.all([app.close(), standin.close(), hook.close()]);
});

let failingId = "";
/** An agent on the local webhook with a day's rental running from now. */
async function rentedAgent() {
  const agent = await makeAgent({
    webhook: { url: hook.url, token: randomBytes(24).toString("base64url"), signingSecret: newSigningSecret() },
  });
  const rental = await makeRental(agent.id, { durationType: "day" });
  return { agent, rental };
}
const recordOf = (id: string) => db.rental.findUniqueOrThrow({ where: { id }, select: { minutesMeasured: true, minutesDown: true } });
const probesOf = (agentId: string) => hook.received.filter((r) => JSON.parse(r.body).agentId === agentId);
const post = (body: string, signature?: string) =>
  POST(
    new Request(DESTINATION, {
      method: "POST",
      headers: { "content-type": "application/json", ...(signature ? { "upstash-signature": signature } : {}) },
      body,
    }),
  );

describe("probe rounds through QStash (the stand-in)", () => {
  it("dispatches the round's batches; each delivery probes its agents once and records the minute in their running rentals", async () => {
    const rented = await Promise.all([rentedAgent(), rentedAgent(), rentedAgent()]);
    failingId = rented[2].agent.id;
    const ids = rented.map((r) => r.agent.id);

    const now = new Date();
    const summary = await probeRentals({ agentIds: ids, now });
    expect(summary).toMatchObject({ probed: 0, rentals: 0, dispatched: { batches: 1, agents: 3, deduplicated: 0 } });
    await standin.idle();

    const [message] = standin.published.filter((m) => JSON.parse(m.body).agents.includes(ids[0]));
    expect(message).toMatchObject({ destination: DESTINATION, deduplicationId: JSON.parse(message.body).id });
    expect(message.flowControl).toMatchObject({ key: "probe-rentals", parallelism: 20 });
    const [delivery] = standin.deliveries.filter((d) => d.messageId === message.messageId);
    expect(delivery.status).toBe(200);
    expect(JSON.parse(delivery.response)).toMatchObject({ taken: true, late: false, probed: 3, up: 2, down: 1, rentals: 3 });

    for (const { agent, rental } of rented) {
      expect(probesOf(agent.id)).toHaveLength(1);
      const record = await recordOf(rental.id);
      expect(countMinutes(record.minutesMeasured)).toBe(1);
      expect(countMinutes(record.minutesDown)).toBe(agent.id === failingId ? 1 : 0);
    }

    // Delivered again (QStash's at least once): nothing probed, nothing recorded twice.
    standin.redeliver(message.messageId);
    await standin.idle();
    const again = standin.deliveries.filter((d) => d.messageId === message.messageId);
    expect(again).toHaveLength(2);
    expect(JSON.parse(again[1].response)).toMatchObject({ taken: false, probed: 0 });
    for (const { agent } of rented) expect(probesOf(agent.id)).toHaveLength(1);
    // The next round in the same minute claims nothing: each agent is probed once a minute.
    expect(await probeRentals({ agentIds: ids, now })).toMatchObject({ dispatched: { batches: 0, agents: 0 } });
  });

  it("a batch delivered more than a minute after its round probes nothing: its minute stays unmeasured (up)", async () => {
    const { agent, rental } = await rentedAgent();
    const round = new Date(Date.now() - 2 * 60_000);
    await db.agent.update({ where: { id: agent.id }, data: { probedMinute: new Date(Math.floor(round.getTime() / 60_000) * 60_000) } });
    const body = JSON.stringify({
      id: `probe-rentals-${round.getTime()}-late`,
      round: round.toISOString(),
      agents: [agent.id],
      concurrency: 1,
    });
    const res = await post(body, signDelivery(keys.current, DESTINATION, body));
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ late: true, probed: 0, rentals: 0 });
    expect(probesOf(agent.id)).toHaveLength(0);
    expect(await recordOf(rental.id)).toEqual({ minutesMeasured: [], minutesDown: [] });
  });

  it("401 for a delivery without QStash's signature, probing and recording nothing", async () => {
    const { agent, rental } = await rentedAgent();
    const round = new Date();
    await db.agent.update({ where: { id: agent.id }, data: { probedMinute: new Date(Math.floor(round.getTime() / 60_000) * 60_000) } });
    const body = JSON.stringify({
      id: `probe-rentals-${round.getTime()}-forged`,
      round: round.toISOString(),
      agents: [agent.id],
      concurrency: 1,
    });
    for (const signature of [undefined, signDelivery(`sig_${randomBytes(16).toString("hex")}`, DESTINATION, body)]) {
      const res = await post(body, signature);
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ error: expect.any(String) });
    }
    expect(probesOf(agent.id)).toHaveLength(0);
    expect(await recordOf(rental.id)).toEqual({ minutesMeasured: [], minutesDown: [] });
  });

  it("may run for a minute", () => {
    expect(maxDuration).toBe(60);
  });
});
