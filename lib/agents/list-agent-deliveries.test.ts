// The owner's delivery log and test message on the real database, with real webhooks: what was
// delivered (never the text), each failure's reason in words, the filter, and the test message
// answered as a renter would be.
import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listAgentDeliveries } from "@/lib/agents/list-agent-deliveries";
import { sendTestMessage } from "@/lib/agents/send-test-message";
import { newSigningSecret } from "@/lib/agents/webhook-credentials";
import { db } from "@/lib/db";
import { chatWithRental } from "@/lib/rentals/chat-with-rental";
import { findRentalByCode } from "@/lib/rentals/find-rental-by-code";
import { makeOwner, makeOwnerAgent, makeRental, startWebhook } from "@/test/fixtures";

const token = randomBytes(24).toString("base64url");
const secret = newSigningSecret();
let hook: Awaited<ReturnType<typeof startWebhook>>;

beforeAll(async () => {
  hook = await startWebhook((req, res) => {
    const { message } = JSON.parse(req.body);
    if (message === "fail") return res.writeHead(503).end("busy");
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ text: `Echo: ${message}` }));
  });
});
afterAll(() => hook.close());

async function listing() {
  const owner = await makeOwner();
  const agent = await makeOwnerAgent(owner.id, { webhook: { url: hook.url, token, signingSecret: secret } });
  return { owner, agent };
}

async function send(agentId: string, message: string) {
  const found = await findRentalByCode((await makeRental(agentId)).id.replaceAll("-", ""));
  if (found.kind !== "found") throw new Error("no rental");
  return chatWithRental(found.rental, message).catch(() => null);
}

describe("listAgentDeliveries", () => {
  it("lists messages and health checks newest first, with outcomes, sizes, reasons in words, and filters", async () => {
    const { agent } = await listing();
    await send(agent.id, "a secret question");
    await send(agent.id, "fail");
    // Stated times, so the order does not hang on the clock's milliseconds.
    const calls = await db.chatCall.findMany({ where: { agentId: agent.id }, orderBy: { id: "asc" } });
    await db.chatCall.update({ where: { id: calls[1].id }, data: { createdAt: new Date(calls[0].createdAt.getTime() + 1000) } });
    // A minute later (stated, so the order does not hang on the clock's milliseconds).
    await db.healthCheck.create({
      data: {
        agentId: agent.id,
        ok: false,
        statusCode: null,
        error: "timeout: no complete reply within 10000 ms",
        latencyMs: 10000,
        trigger: "schedule",
        createdAt: new Date(Date.now() + 60_000),
      },
    });

    const all = await listAgentDeliveries(agent.id);
    expect(all.map((d) => [d.kind, d.ok])).toEqual([
      ["health_check", false],
      ["message", false],
      ["message", true],
    ]);
    expect(all[0]).toMatchObject({
      channel: "Health check",
      reason: "Your webhook did not answer within 10 seconds.",
      requestBytes: null,
    });
    expect(all[1]).toMatchObject({ channel: "API", webhookStatus: 503, reason: "The agent's webhook returned HTTP 503.", requestBytes: 4 });
    expect(all[2]).toMatchObject({ webhookStatus: 200, reason: null, requestBytes: Buffer.byteLength("a secret question") });
    expect(JSON.stringify(all)).not.toContain("secret question");

    expect((await listAgentDeliveries(agent.id, "failed")).every((d) => !d.ok)).toBe(true);
    expect((await listAgentDeliveries(agent.id, "failed")).length).toBe(2);
    expect(await listAgentDeliveries(agent.id, "succeeded")).toEqual([all[2]]);
    // Another listing's log is its own.
    expect(await listAgentDeliveries((await listing()).agent.id)).toEqual([]);
  });

  it("lists the rental.extended calls made, answered or not, in words, and filters them", async () => {
    const { agent } = await listing();
    const rental = await makeRental(agent.id);
    const extension = (at: Date, call: { notifyStatusCode: number | null; notifyError: string | null } | null) =>
      db.rentalExtension.create({
        data: {
          rentalId: rental.id,
          durationType: "hour",
          periods: 1,
          addedSeconds: 3600,
          addedPriceMicro: 2_000_000n,
          feeMicro: 100_000n,
          fromEndsAt: at,
          deadline: at,
          ...(call && { notifyAttemptedAt: at, notifyLatencyMs: 40, ...call }),
        },
      });
    const now = Date.now();
    await extension(new Date(now - 60_000), { notifyStatusCode: 204, notifyError: null });
    await extension(new Date(now), { notifyStatusCode: null, notifyError: "timeout: no complete reply within 1500 ms" });
    // An extension quoted but never paid made no call: not in the log.
    await extension(new Date(now), null);

    const all = await listAgentDeliveries(agent.id);
    expect(all).toMatchObject([
      { kind: "rental_event", channel: "Rental extended", ok: false, webhookStatus: null, latencyMs: 40 },
      { kind: "rental_event", channel: "Rental extended", ok: true, webhookStatus: 204, reason: null, requestBytes: null },
    ]);
    expect(all[0].reason).toBe("Your webhook did not answer within 1,500 ms.");
    expect((await listAgentDeliveries(agent.id, "failed")).map((d) => d.key)).toEqual([all[0].key]);
    expect((await listAgentDeliveries(agent.id, "succeeded")).map((d) => d.key)).toEqual([all[1].key]);
  });
});

describe("sendTestMessage", () => {
  it("answers exactly what /v1/chat would give a renter, signed like any call, and records nothing", async () => {
    const { owner, agent } = await listing();
    const before = hook.received.length;
    const result = await sendTestMessage(owner.id, agent.id, "ping");
    expect(result).toMatchObject({ status: 200, webhookStatus: 200 });
    expect(result.body).toEqual({
      success: true,
      agent: agent.name,
      response: { text: "Echo: ping" },
      rental: { id: "00000000-0000-4000-8000-000000000000", ends_at: expect.any(String) },
    });
    const sent = hook.received.slice(before)[0];
    expect(new Webhook(secret).verify(sent.body, sent.headers as Record<string, string>)).toMatchObject({
      message: "ping",
      rental: { ref: "rr_00000000000000000000000000000000" },
    });
    expect(sent.headers["x-rental-ref"]).toBe("rr_00000000000000000000000000000000");
    expect(await db.chatCall.count({ where: { agentId: agent.id } })).toBe(0);

    expect(await sendTestMessage(owner.id, agent.id, "fail")).toMatchObject({
      status: 502,
      body: { error: "The agent's webhook returned HTTP 503." },
    });
    await expect(sendTestMessage((await makeOwner()).id, agent.id, "ping")).rejects.toMatchObject({ status: 404 });
    const bare = await makeOwnerAgent(owner.id);
    await expect(sendTestMessage(owner.id, bare.id, "ping")).rejects.toMatchObject({ status: 409 });
  });
});
