import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST } from "@/app/api/queue/health-checks/route";
import type { HealthCheckBatchResult } from "@/lib/agents/run-health-check-batch";
import { runHealthChecks } from "@/lib/agents/run-health-checks";
import { db } from "@/lib/db";
import { queueConfigured } from "@/lib/queue/qstash";
import { makeAgent } from "@/test/fixtures";

// Without QStash settings: the round's batches run in this process. The same layout of agents as
// app/api/queue/health-checks/route.test.ts, which sends them through QStash (its stand-in).
const token = randomBytes(24).toString("base64url");

async function hostWebhook(address: string, status = 200) {
  const received: string[] = [];
  const server = createServer(async (req, res) => {
    let body = "";
    for await (const chunk of req) body += chunk;
    received.push(JSON.parse(body).agentId);
    setTimeout(() => res.writeHead(status).end("{}"), 5);
  });
  await new Promise<void>((resolve) => server.listen(0, address, resolve));
  return {
    url: `http://${address}:${(server.address() as AddressInfo).port}/hooks/agent`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

type Hook = Awaited<ReturnType<typeof hostWebhook>>;
let busy: Hook;
let other: Hook;
let failing: Hook;
beforeAll(async () => {
  [busy, other, failing] = await Promise.all([hostWebhook("127.0.0.1"), hostWebhook("127.0.0.2"), hostWebhook("127.0.0.3", 500)]);
});
afterAll(() => Promise.all([busy.close(), other.close(), failing.close()]));

const agentOn = (url: string) => makeAgent({ webhook: { url, token }, listing: { name: `In-process ${randomBytes(4).toString("hex")}` } });

describe("health-check rounds without QStash", () => {
  it("run the same batches in this process: cut by host, every due agent checked once, the summary as before", async () => {
    expect(queueConfigured()).toBe(false);
    const many = await Promise.all(Array.from({ length: 7 }, () => agentOn(busy.url)));
    const few = await Promise.all([agentOn(other.url), agentOn(other.url)]);
    const broken = await agentOn(failing.url);
    const ids = [...many, ...few, broken].map((a) => a.id);

    const batches: HealthCheckBatchResult[] = [];
    const summary = await runHealthChecks({ agentIds: ids, hostConcurrency: 2, hostBatchAgents: 3, onBatch: (b) => batches.push(b) });
    expect(summary).toEqual({
      checked: 10,
      healthy: 9,
      failed: 1,
      wentOffline: 1,
      cameOnline: 0,
      errors: 0,
      remaining: 0,
      durationMs: expect.any(Number),
    });
    // The batches QStash would get: the busy host's 7 in three of its own (3, 3, 1), the rest shared.
    expect(batches.map((b) => b.checked).sort()).toEqual([1, 3, 3, 3]);
    expect(batches.every((b) => b.taken && b.released === 0 && b.durationMs >= 0)).toBe(true);

    const rows = await db.healthCheck.findMany({ where: { agentId: { in: ids } } });
    expect(rows.map((r) => r.agentId).sort()).toEqual([...ids].sort());
    expect([...busy.received, ...other.received, ...failing.received].filter((id) => ids.includes(id)).sort()).toEqual([...ids].sort());
    expect((await db.agent.findUniqueOrThrow({ where: { id: broken.id } })).status).toBe("offline");
    expect(await runHealthChecks({ agentIds: ids })).toMatchObject({ checked: 0 });
  });

  it("the batch route answers 503 in JSON and runs nothing while QStash is not configured", async () => {
    const res = await POST(new Request("http://localhost/api/queue/health-checks", { method: "POST", body: "{}" }));
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ error: expect.stringContaining("QSTASH_TOKEN") });
  });
});
