import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { newSigningSecret } from "@/lib/agents/webhook-credentials";
import { countMinutes } from "@/lib/availability/minute-runs";
import { db } from "@/lib/db";
import { makeAgent, makeRental, startWebhook } from "@/test/fixtures";

const { secret, scope } = vi.hoisted(() => {
  const secret = `cron-${Math.random().toString(36).slice(2)}-secret-for-tests`;
  process.env.CRON_SECRET = secret; // read when lib/env loads, below
  return { secret, scope: { agentIds: [] as string[] } };
});

// The real round at the real time, kept to this file's agents: other test files share the database.
vi.mock("@/lib/availability/probe-rentals", async (importOriginal) => {
  const real = await importOriginal<typeof import("@/lib/availability/probe-rentals")>();
  return { probeRentals: () => real.probeRentals({ agentIds: scope.agentIds }) };
});

const { GET, POST, PUT, PATCH, DELETE, maxDuration } = await import("@/app/api/cron/probe-rentals/route");

const call = (method: "GET" | "POST", authorization?: string) =>
  (method === "GET" ? GET : POST)(
    new Request("http://localhost/api/cron/probe-rentals", { method, headers: authorization ? { authorization } : {} }),
  );

let hook: Awaited<ReturnType<typeof startWebhook>>;
beforeAll(async () => {
  hook = await startWebhook((_req, res) => res.writeHead(200).end("ok"));
});
afterAll(() => hook.close());

/** An agent on the local webhook with a day's rental running from now. */
async function rentedAgent() {
  const agent = await makeAgent({
    webhook: { url: hook.url, token: randomBytes(24).toString("base64url"), signingSecret: newSigningSecret() },
  });
  const rental = await makeRental(agent.id, { durationType: "day" });
  return { agent, rental };
}
const recordOf = (id: string) => db.rental.findUniqueOrThrow({ where: { id }, select: { minutesMeasured: true, minutesDown: true } });
const checksFor = (agentId: string) => hook.received.filter((r) => JSON.parse(r.body).agentId === agentId);

describe("/api/cron/probe-rentals", () => {
  it("401 without the secret or with a wrong one, probing and recording nothing", async () => {
    const { agent, rental } = await rentedAgent();
    scope.agentIds = [agent.id];
    for (const res of [await call("GET"), await call("GET", "Bearer wrong-secret-but-long-enough"), await call("POST", secret)]) {
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ error: expect.any(String) });
    }
    expect(checksFor(agent.id)).toHaveLength(0);
    expect(await recordOf(rental.id)).toEqual({ minutesMeasured: [], minutesDown: [] });
    expect((await db.agent.findUniqueOrThrow({ where: { id: agent.id } })).probedMinute).toBeNull();
  });

  it("200 with the round's summary for the bearer secret, on GET (Vercel Cron) and POST; the running rental records the minute", async () => {
    const [first, second] = await Promise.all([rentedAgent(), rentedAgent()]);
    scope.agentIds = [first.agent.id];
    const res = await call("GET", `Bearer ${secret}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ probed: 1, up: 1, down: 0, rentals: 1, durationMs: expect.any(Number) });
    expect(checksFor(first.agent.id)).toHaveLength(1);
    expect(checksFor(first.agent.id)[0].headers["x-health-check"]).toBe("true");
    const record = await recordOf(first.rental.id);
    expect(countMinutes(record.minutesMeasured)).toBe(1);
    expect(record.minutesDown).toEqual([]);

    scope.agentIds = [second.agent.id];
    expect(await (await call("POST", `Bearer ${secret}`)).json()).toMatchObject({ probed: 1, up: 1, rentals: 1 });
    expect(checksFor(second.agent.id)).toHaveLength(1);
  });

  it("405 in JSON for the other methods, naming GET and POST", async () => {
    for (const refuse of [PUT, PATCH, DELETE]) {
      const res = refuse();
      expect(res.status).toBe(405);
      expect(res.headers.get("allow")).toBe("GET, POST");
      expect(await res.json()).toEqual({ error: expect.any(String) });
    }
  });

  it("may run for a minute, the cron's period", () => {
    expect(maxDuration).toBe(60);
  });
});
