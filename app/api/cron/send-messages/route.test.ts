import { randomBytes, randomInt } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { queueChatNotices } from "@/lib/channels/queue-chat-notice";
import { db } from "@/lib/db";
import { queueEmails } from "@/lib/email/send-email";
import { env } from "@/lib/env";
import { type ChatPlatformMock, startChatPlatformMock } from "@/scripts/chat-platform-mock";
import { startWebhook } from "@/test/fixtures";
import { isolateDatabase } from "@/test/private-database";

const { secret } = vi.hoisted(() => {
  const secret = `cron-${Math.random().toString(36).slice(2)}-secret-for-tests`;
  process.env.CRON_SECRET = secret; // read when lib/env loads, below
  return { secret };
});

const sender = await import("@/app/api/cron/send-messages/route");
const formerPath = await import("@/app/api/cron/retry-emails/route");

// The run takes every due e-mail and notice of its database: this file's only.
isolateDatabase("send_messages_route");

const call = (route: typeof sender, method: "GET" | "POST", authorization?: string) =>
  (method === "GET" ? route.GET : route.POST)(
    new Request("http://localhost/api/cron/send-messages", { method, headers: authorization ? { authorization } : {} }),
  );

// Resend as configured in env (RESEND_API_KEY, RESEND_BASE_URL at a local stand-in, a fast rate
// so the test does not wait), and Telegram at the platform mock.
const apiKey = `re_${randomBytes(12).toString("hex")}`;
let resend: Awaited<ReturnType<typeof startWebhook>>;
let platforms: ChatPlatformMock;
beforeAll(async () => {
  resend = await startWebhook((req, res) =>
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ id: `re-${req.headers["idempotency-key"]}` })),
  );
  platforms = await startChatPlatformMock();
  Object.assign(env, {
    RESEND_API_KEY: apiKey,
    RESEND_BASE_URL: `http://127.0.0.1:${resend.port}`,
    EMAIL_SEND_RATE_PER_SECOND: 50,
    TELEGRAM_BOT_TOKEN: "1:sender-route-test",
    TELEGRAM_API_URL: `${platforms.url}/telegram`,
  });
});
afterAll(() => Promise.all([resend.close(), platforms.close()]));

async function queueSome(emails: number, notices: number) {
  const keys = Array.from({ length: emails }, () => `test:${randomBytes(8).toString("hex")}`);
  await queueEmails(
    keys.map((idempotencyKey) => ({ to: "owner@example.com", subject: "Hello", text: "t", html: "<p>t</p>", idempotencyKey })),
  );
  const chats = Array.from({ length: notices }, () => String(randomInt(1, 2 ** 40)));
  await queueChatNotices(
    chats.map((id) => ({
      target: { platform: "Telegram" as const, id, chatId: id },
      text: "Your rental ended.",
      idempotencyKey: `test:${id}`,
    })),
  );
  return { keys, chats };
}

describe("/api/cron/send-messages", () => {
  it("401 without the secret or with a wrong one, sending nothing", async () => {
    await queueSome(1, 1);
    for (const res of [
      await call(sender, "GET"),
      await call(sender, "GET", "Bearer wrong-secret-but-long-enough"),
      await call(sender, "POST", secret),
    ]) {
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ error: expect.any(String) });
    }
    expect(resend.received).toHaveLength(0);
    expect(platforms.calls()).toHaveLength(0);
  });

  it("200 with the run's summary on GET (Vercel Cron) and POST: queued e-mails through the configured Resend, notices to their platform", async () => {
    const res = await call(sender, "GET", `Bearer ${secret}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      emails: { tried: 1, sent: 1, failed: 0, gaveUp: 0, throttled: 0, remaining: 0 }, // those of the test above
      notices: { tried: 1, sent: 1, failed: 0, gaveUp: 0, remaining: 0 },
      durationMs: expect.any(Number),
    });
    const [request] = resend.received;
    expect([request.method, request.url, request.headers.authorization]).toEqual(["POST", "/emails", `Bearer ${apiKey}`]);
    expect(platforms.calls().map((c) => [c.platform, c.method, c.body.text])).toEqual([["Telegram", "sendMessage", "Your rental ended."]]);

    const { keys } = await queueSome(1, 0);
    expect(await (await call(sender, "POST", `Bearer ${secret}`)).json()).toMatchObject({ emails: { sent: 1 }, notices: { tried: 0 } });
    expect(await db.email.findUniqueOrThrow({ where: { idempotencyKey: keys[0] } })).toMatchObject({ status: "sent", attempts: 1 });
  });

  it("called on three servers at once, sends each e-mail and each notice exactly once", async () => {
    const { keys, chats } = await queueSome(12, 12);
    const bodies = await Promise.all([1, 2, 3].map(async () => (await call(sender, "GET", `Bearer ${secret}`)).json()));
    expect(bodies.reduce((sum, b) => sum + b.emails.sent, 0)).toBe(12);
    expect(bodies.reduce((sum, b) => sum + b.notices.sent, 0)).toBe(12);
    for (const key of keys) expect(resend.received.filter((r) => r.headers["idempotency-key"] === key)).toHaveLength(1);
    for (const id of chats) expect(platforms.calls().filter((c) => c.body.chat_id === id)).toHaveLength(1);
  });

  it("the former path /api/cron/retry-emails runs the same sender", async () => {
    const { keys } = await queueSome(1, 0);
    expect(await (await call(formerPath, "GET", `Bearer ${secret}`)).json()).toMatchObject({ emails: { sent: 1 } });
    expect(resend.received.at(-1)!.headers["idempotency-key"]).toBe(keys[0]);
  });

  it("405 in JSON for other methods on both paths; may run for Vercel's longest function time", async () => {
    for (const route of [sender, formerPath]) {
      const res = route.PUT();
      expect(res.status).toBe(405);
      expect(await res.json()).toEqual({ error: expect.any(String) });
      expect(route.maxDuration).toBe(300);
    }
  });
});
