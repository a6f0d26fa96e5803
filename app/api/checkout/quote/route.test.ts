// POST /api/checkout/quote's live check of the agent (issue 25), on the real database, a real
// chain (anvil) and real local webhooks: a signed health_check before anything is written or
// signed; a webhook that fails, hangs or may not be called refuses the quote with 409 and takes
// the agent offline as a failed scheduled check would. The rest of the quote: test/chain/payments-checkout*.test.ts.
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST } from "@/app/api/checkout/quote/route";
import { loadReliability } from "@/lib/agents/load-reliability";
import { recordHealthChecks } from "@/lib/agents/record-health-checks";
import { newSigningSecret } from "@/lib/agents/webhook-credentials";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { probeTimeoutMs } from "@/lib/rentals/probe-before-quote";
import { quoteRental } from "@/lib/rentals/quote-rental";
import { checkoutRequest, makePayableAgent, newAddress, type Payments, startPayments } from "@/test/chain/payments-harness";
import { startWebhook, uniqueIp } from "@/test/fixtures";

type Hook = Awaited<ReturnType<typeof startWebhook>>;
let p: Payments;
let answering: Hook;
let failing: Hook;
let hanging: Hook;

beforeAll(async () => {
  p = await startPayments();
  answering = await startWebhook((_req, res) => res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}'));
  failing = await startWebhook((_req, res) => res.writeHead(500).end("boom"));
  // Never answers: only the check's own timeout ends the wait (closeAllConnections at the end).
  hanging = await startWebhook(() => undefined);
});
afterAll(async () => {
  await Promise.all([answering, failing, hanging].map((hook) => hook?.close()));
  await p?.stop();
});

const quote = (agentId: string, renter = newAddress()) =>
  POST(checkoutRequest("quote", { agentId, durationType: "hour", channel: "API", renter }, uniqueIp()));
const notAnswering = (name: string) => `"${name}" is not answering right now. Nothing was charged: try again later, or pick another agent.`;
const checksOf = (agentId: string) => db.healthCheck.findMany({ where: { agentId }, orderBy: { id: "asc" } });
const offlineEmails = (agentId: string) => db.email.findMany({ where: { idempotencyKey: { startsWith: `agent-offline:${agentId}:` } } });
const statusOf = async (agentId: string) => (await db.agent.findUniqueOrThrow({ where: { id: agentId } })).status;

/** After a refused check: the agent is offline, the check recorded once as a checkout's, the owner e-mailed once, nothing written for the renter. */
async function expectRefusedCheck(agentId: string, renter: string, recorded: { statusCode: number | null; error: RegExp }) {
  expect(await statusOf(agentId)).toBe("offline");
  const checks = await checksOf(agentId);
  expect(checks).toHaveLength(1);
  expect(checks[0]).toMatchObject({ trigger: "checkout", ok: false, statusCode: recorded.statusCode });
  expect(checks[0].error).toMatch(recorded.error);
  const owner = await db.agent.findUniqueOrThrow({ where: { id: agentId }, select: { owner: { select: { email: true } } } });
  const emails = await offlineEmails(agentId);
  expect(emails).toHaveLength(1);
  expect(emails[0].to).toBe(owner.owner.email);
  expect(await db.rental.count({ where: { agentId } })).toBe(0);
  expect(await db.account.count({ where: { walletAddress: renter.toLowerCase() } })).toBe(0);
}

describe("POST /api/checkout/quote checks the agent first", () => {
  it("201 with the check's latency and time when the webhook answers; the check was signed and marked X-Health-Check", async () => {
    const signingSecret = newSigningSecret();
    const { agent } = await makePayableAgent({ webhook: answering.url, signingSecret });
    const before = Date.now();
    const res = await quote(agent.id);
    const after = Date.now();
    expect(res.status).toBe(201);
    const { probe } = await res.json();
    expect(Object.keys(probe)).toEqual(["latency_ms", "checked_at"]);
    expect(Number.isInteger(probe.latency_ms) && probe.latency_ms >= 0).toBe(true);
    expect(new Date(probe.checked_at).toISOString()).toBe(probe.checked_at);
    expect(Date.parse(probe.checked_at)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(probe.checked_at)).toBeLessThanOrEqual(after);

    const sent = answering.received.filter((r) => r.body.includes(agent.id));
    expect(sent).toHaveLength(1);
    expect(sent[0].headers).toMatchObject({ "x-health-check": "true", "x-agent-name": agent.name });
    expect(new Webhook(signingSecret).verify(sent[0].body, sent[0].headers as Record<string, string>)).toEqual({
      type: "health_check",
      timestamp: expect.any(String),
      agentId: agent.id,
    });
    expect(() => new Webhook(newSigningSecret()).verify(sent[0].body, sent[0].headers as Record<string, string>)).toThrow();

    const [check] = await checksOf(agent.id);
    expect(check).toMatchObject({ trigger: "checkout", ok: true, statusCode: 200, error: null, latencyMs: probe.latency_ms });
    expect(check.createdAt.toISOString()).toBe(probe.checked_at);
    expect(await statusOf(agent.id)).toBe("available");
    expect(await offlineEmails(agent.id)).toHaveLength(0);
  });

  it("copies the listing's uptime guarantee into the rental it quotes: a later change is for new rentals only", async () => {
    const { agent } = await makePayableAgent({ webhook: answering.url, listing: { guaranteePercent: 99.5 } });
    expect((await quote(agent.id)).status).toBe(201);
    await db.agent.update({ where: { id: agent.id }, data: { guaranteePermille: 900 } });
    const rental = await db.rental.findFirstOrThrow({ where: { agentId: agent.id } });
    expect(rental.guaranteePermille).toBe(995);
  });

  it("409 when the webhook answers 500: the agent goes offline, its owner is e-mailed once, nothing is written", async () => {
    const { agent } = await makePayableAgent({ webhook: failing.url });
    const renter = newAddress();
    const res = await quote(agent.id, renter);
    expect(res.status).toBe(409);
    const { error } = await res.json();
    // In the renter's words: the agent's name, nothing of the owner's webhook.
    expect(error).toBe(notAnswering(agent.name));
    expect(error).not.toMatch(/127\.0\.0\.1|http|500|webhook/i);
    await expectRefusedCheck(agent.id, renter, { statusCode: 500, error: /^HTTP 500$/ });
    const [email] = await offlineEmails(agent.id);
    expect(email.text).toContain("HTTP 500");
    expect(email.text).not.toContain(failing.url);

    // Offline now: the next renter is refused before any check, and the owner is not told again.
    const again = await quote(agent.id);
    expect(again.status).toBe(409);
    expect((await again.json()).error).toMatch(/not available for rent right now/);
    expect(await checksOf(agent.id)).toHaveLength(1);
    expect(await offlineEmails(agent.id)).toHaveLength(1);
  });

  it("leaves the uptime to the scheduled checks: a failed check before a quote does not lower it", async () => {
    const { agent } = await makePayableAgent({ webhook: failing.url });
    const ok = { ok: true, statusCode: 200, error: null, latencyMs: 5 };
    const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000);
    await recordHealthChecks(
      [15, 30, 45].map((n) => ({ agentId: agent.id, createdAt: minutesAgo(n), ...ok })),
      "schedule",
    );
    expect((await quote(agent.id)).status).toBe(409);
    expect(await db.healthCheck.count({ where: { agentId: agent.id, trigger: "checkout", ok: false } })).toBe(1);
    expect((await loadReliability([agent.id], new Date())).get(agent.id)).toMatchObject({ uptime: 100, uptimeSource: "healthChecks" });
  });

  it("409 when the webhook's address is refused by the SSRF guard (private webhooks not allowed): never called", async () => {
    const { agent } = await makePayableAgent({ webhook: answering.url });
    const renter = newAddress();
    const saved = env.ALLOW_PRIVATE_WEBHOOKS;
    let res: Response;
    try {
      Object.assign(env, { ALLOW_PRIVATE_WEBHOOKS: false }); // as in production
      res = await quote(agent.id, renter);
    } finally {
      Object.assign(env, { ALLOW_PRIVATE_WEBHOOKS: saved });
    }
    expect(res.status).toBe(409);
    expect((await res.json()).error).toBe(notAnswering(agent.name));
    expect(answering.received.filter((r) => r.body.includes(agent.id))).toHaveLength(0);
    await expectRefusedCheck(agent.id, renter, { statusCode: null, error: /^blocked: / });
  });

  it("409 when the webhook does not answer within the check's time limit (injected: 200 ms)", async () => {
    const { agent } = await makePayableAgent({ webhook: hanging.url });
    const renter = newAddress();
    await expect(
      quoteRental({ agentId: agent.id, durationType: "hour", channel: "API", renter }, new Date(), { probe: { timeoutMs: 200 } }),
    ).rejects.toMatchObject({ status: 409, message: notAnswering(agent.name) });
    await expectRefusedCheck(agent.id, renter, { statusCode: null, error: /^timeout: no complete reply within 200 ms$/ });
  });

  it("waits HEALTH_CHECK_TIMEOUT_MS for the check, never more than the issue's 10 s", () => {
    const saved = env.HEALTH_CHECK_TIMEOUT_MS;
    try {
      Object.assign(env, { HEALTH_CHECK_TIMEOUT_MS: 10_000 }); // the default
      expect(probeTimeoutMs()).toBe(10_000);
      Object.assign(env, { HEALTH_CHECK_TIMEOUT_MS: 60_000 }); // the most the setting takes
      expect(probeTimeoutMs()).toBe(10_000);
      Object.assign(env, { HEALTH_CHECK_TIMEOUT_MS: 3_000 });
      expect(probeTimeoutMs()).toBe(3_000);
      expect(probeTimeoutMs({ timeoutMs: 200 })).toBe(200);
      expect(probeTimeoutMs({ timeoutMs: 30_000 })).toBe(10_000);
    } finally {
      Object.assign(env, { HEALTH_CHECK_TIMEOUT_MS: saved });
    }
  });
});
