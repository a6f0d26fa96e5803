import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { startWebhook } from "@/test/fixtures";
import { isolateDatabase } from "@/test/private-database";

const { secret } = vi.hoisted(() => {
  const secret = `cron-${Math.random().toString(36).slice(2)}-secret-for-tests`;
  process.env.CRON_SECRET = secret; // read when lib/env loads, below
  return { secret };
});

const { GET, POST, PUT, maxDuration } = await import("@/app/api/cron/retry-emails/route");

// The run takes every due e-mail of its database: this file's only.
isolateDatabase("retry_emails_route");

const call = (method: "GET" | "POST", authorization?: string) =>
  (method === "GET" ? GET : POST)(
    new Request("http://localhost/api/cron/retry-emails", { method, headers: authorization ? { authorization } : {} }),
  );

// Resend as configured in env: RESEND_API_KEY, and RESEND_BASE_URL aimed at a local stand-in.
const apiKey = `re_${randomBytes(12).toString("hex")}`;
let resend: Awaited<ReturnType<typeof startWebhook>>;
beforeAll(async () => {
  resend = await startWebhook((_req, res) =>
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ id: "re-ok" })),
  );
  Object.assign(env, { RESEND_API_KEY: apiKey, RESEND_BASE_URL: `http://127.0.0.1:${resend.port}` });
});
afterAll(() => resend.close());

/** A failed e-mail due a minute ago. */
async function failedEmail() {
  const idempotencyKey = `test:${randomBytes(8).toString("hex")}`;
  await db.email.create({
    data: {
      idempotencyKey,
      to: "owner@example.com",
      subject: "Hello",
      text: "t",
      html: "<p>t</p>",
      transport: "resend",
      status: "failed",
      error: "Resend answered HTTP 500: down",
      attempts: 1,
      nextAttemptAt: new Date(Date.now() - 60_000),
    },
  });
  return idempotencyKey;
}

describe("/api/cron/retry-emails", () => {
  it("401 without the secret or with a wrong one, sending nothing", async () => {
    const key = await failedEmail();
    for (const res of [await call("GET"), await call("GET", "Bearer wrong-secret-but-long-enough"), await call("POST", secret)]) {
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ error: expect.any(String) });
    }
    expect(resend.received).toHaveLength(0);
    expect(await db.email.findUniqueOrThrow({ where: { idempotencyKey: key } })).toMatchObject({
      status: "failed",
      attempts: 1,
    });
  });

  it("200 with the run's summary on GET (Vercel Cron) and POST, sending through the configured Resend", async () => {
    const res = await call("GET", `Bearer ${secret}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ retried: 1, sent: 1, failed: 0, gaveUp: 0, remaining: 0 }); // the e-mail of the test above
    const [request] = resend.received;
    expect([request.method, request.url, request.headers.authorization]).toEqual(["POST", "/emails", `Bearer ${apiKey}`]);
    expect(request.headers["idempotency-key"]).toMatch(/^test:/);

    const key = await failedEmail();
    expect(await (await call("POST", `Bearer ${secret}`)).json()).toMatchObject({ retried: 1, sent: 1 });
    expect(resend.received.at(-1)!.headers["idempotency-key"]).toBe(key);
    expect(await db.email.findUniqueOrThrow({ where: { idempotencyKey: key } })).toMatchObject({
      status: "sent",
      attempts: 2,
      providerId: "re-ok",
    });
  });

  it("405 in JSON for other methods; may run for Vercel's longest function time", async () => {
    const res = PUT();
    expect(res.status).toBe(405);
    expect(await res.json()).toEqual({ error: expect.any(String) });
    expect(maxDuration).toBe(300);
  });
});
