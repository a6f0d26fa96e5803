import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { makeAgent, startWebhook } from "@/test/fixtures";

const { secret, scope } = vi.hoisted(() => {
  const secret = `cron-${Math.random().toString(36).slice(2)}-secret-for-tests`;
  process.env.CRON_SECRET = secret; // read when lib/env loads, below
  return { secret, scope: { agentIds: [] as string[] } };
});

// The real run, kept to this file's agents: other test files share the database.
vi.mock("@/lib/agents/run-health-checks", async (importOriginal) => {
  const real = await importOriginal<typeof import("@/lib/agents/run-health-checks")>();
  return { runHealthChecks: () => real.runHealthChecks({ agentIds: scope.agentIds }) };
});

const { GET, POST, maxDuration } = await import("@/app/api/cron/health-checks/route");

const call = (method: "GET" | "POST", authorization?: string) =>
  (method === "GET" ? GET : POST)(
    new Request("http://localhost/api/cron/health-checks", { method, headers: authorization ? { authorization } : {} }),
  );

let hook: Awaited<ReturnType<typeof startWebhook>>;
beforeAll(async () => {
  hook = await startWebhook((_req, res) => res.writeHead(200).end("ok"));
});
afterAll(() => hook.close());

describe("/api/cron/health-checks", () => {
  it("401 without the secret or with a wrong one, checking nothing", async () => {
    const agent = await makeAgent({ webhook: { url: hook.url, token: randomBytes(24).toString("base64url") } });
    scope.agentIds = [agent.id];
    for (const res of [await call("GET"), await call("GET", "Bearer wrong-secret-but-long-enough"), await call("POST", secret)]) {
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ error: expect.any(String) });
    }
    expect(hook.received).toHaveLength(0);
    expect((await db.agent.findUniqueOrThrow({ where: { id: agent.id } })).lastHealthCheckAt).toBeNull();
  });

  it("200 with the run's summary for the bearer secret, on GET (Vercel Cron) and POST", async () => {
    const agents = await Promise.all([1, 2].map(() => makeAgent({ webhook: { url: hook.url, token: "t".repeat(32) } })));
    scope.agentIds = [agents[0].id];
    const res = await call("GET", `Bearer ${secret}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      checked: 1,
      healthy: 1,
      failed: 0,
      wentOffline: 0,
      cameOnline: 0,
      errors: 0,
      remaining: 0,
      durationMs: expect.any(Number),
    });
    scope.agentIds = [agents[1].id];
    expect(await (await call("POST", `Bearer ${secret}`)).json()).toMatchObject({ checked: 1, healthy: 1 });
  });

  it("may run for Vercel's longest function time", () => {
    expect(maxDuration).toBe(300);
  });
});
