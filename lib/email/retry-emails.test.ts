// The e-mail retry cron against a local stand-in for api.resend.com that records every request:
// failed and cut-off e-mails are sent again under the same Idempotency-Key with a doubling delay,
// given up after 8 tries, and a sent e-mail is never sent again. Clocks are given, never waited for.
import { randomBytes } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { MAX_EMAIL_ATTEMPTS } from "@/lib/email/deliver-email";
import type { ResendTransport } from "@/lib/email/email-transport";
import { retryEmails } from "@/lib/email/retry-emails";
import { type EmailMessage, sendEmail } from "@/lib/email/send-email";
import { startWebhook } from "@/test/fixtures";
import { isolateDatabase } from "@/test/private-database";

// Every due e-mail of its database is the cron's: this file's only.
isolateDatabase("retry_emails");

const MINUTE = 60_000;
const T0 = new Date("2030-03-01T08:00:00.000Z");
const at = (ms: number) => new Date(T0.getTime() + ms);

const message = (overrides: Partial<EmailMessage> = {}): EmailMessage => ({
  to: "owner@example.com",
  subject: "Your agent is offline",
  text: "Plain text body",
  html: "<p>HTML body</p>",
  idempotencyKey: `test:${randomBytes(8).toString("hex")}`,
  ...overrides,
});

// Answers 500 to the next `failures[key]` requests carrying that key, then 200 with an id.
const failures = new Map<string, number>();
let resend: Awaited<ReturnType<typeof startWebhook>>;
let transport: ResendTransport;
beforeAll(async () => {
  resend = await startWebhook((req, res) => {
    const key = String(req.headers["idempotency-key"]);
    const left = failures.get(key) ?? 0;
    if (left > 0) {
      failures.set(key, left - 1);
      return res.writeHead(500, { "content-type": "application/json" }).end(
        JSON.stringify({
          statusCode: 500,
          name: "internal_server_error",
          message: "Something went wrong on our side.",
        }),
      );
    }
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ id: `re-${key}` }));
  });
  transport = {
    kind: "resend",
    apiKey: `re_${randomBytes(12).toString("hex")}`,
    from: "Agent Rental <no-reply@example.com>",
    baseUrl: `http://127.0.0.1:${resend.port}`,
  };
});
afterAll(() => resend.close());
afterEach(async () => {
  vi.restoreAllMocks();
  // Each test starts with no e-mail due: what it leaves behind is given up.
  await db.email.updateMany({
    where: { status: { in: ["pending", "failed"] } },
    data: { status: "failed", attempts: MAX_EMAIL_ATTEMPTS, nextAttemptAt: null },
  });
});

const requestsFor = (key: string) => resend.received.filter((r) => r.headers["idempotency-key"] === key);
const row = (key: string) => db.email.findUniqueOrThrow({ where: { idempotencyKey: key } });
const quiet = () => vi.spyOn(console, "error").mockImplementation(() => {});

describe("retryEmails (the e-mail retry cron)", () => {
  it("a first send that fails (HTTP 500) is scheduled; the cron sends it again with the same Idempotency-Key and records it sent", async () => {
    quiet();
    const msg = message();
    failures.set(msg.idempotencyKey, 1);
    expect(await sendEmail(msg, transport, T0)).toMatchObject({
      status: "failed",
      attempts: 1,
      nextAttemptAt: at(5 * MINUTE),
      error: "Resend answered HTTP 500: Something went wrong on our side.",
    });

    // Not due yet: nothing is sent.
    expect(await retryEmails({ now: at(5 * MINUTE - 1), transport })).toEqual({
      retried: 0,
      sent: 0,
      failed: 0,
      gaveUp: 0,
      remaining: 0,
    });
    expect(requestsFor(msg.idempotencyKey)).toHaveLength(1);

    expect(await retryEmails({ now: at(5 * MINUTE), transport })).toEqual({
      retried: 1,
      sent: 1,
      failed: 0,
      gaveUp: 0,
      remaining: 0,
    });
    const [first, second] = requestsFor(msg.idempotencyKey);
    expect(second.url).toBe("/emails");
    expect(second.headers.authorization).toBe(`Bearer ${transport.apiKey}`);
    expect(second.body).toBe(first.body);
    expect(JSON.parse(second.body)).toEqual({
      from: transport.from,
      to: [msg.to],
      subject: msg.subject,
      text: msg.text,
      html: msg.html,
    });
    expect(await row(msg.idempotencyKey)).toMatchObject({
      status: "sent",
      providerId: `re-${msg.idempotencyKey}`,
      error: null,
      attempts: 2,
      nextAttemptAt: null,
    });

    // Sent: never sent again, however late the cron runs.
    expect(await retryEmails({ now: at(30 * 24 * 60 * MINUTE), transport })).toMatchObject({ retried: 0 });
    expect(requestsFor(msg.idempotencyKey)).toHaveLength(2);
  });

  it(`gives up after ${MAX_EMAIL_ATTEMPTS} tries, 5, 10, 20 … 320 minutes apart: failed, with a final error`, async () => {
    const log = quiet();
    const msg = message();
    failures.set(msg.idempotencyKey, 1_000);
    await sendEmail(msg, transport, T0);

    let now = T0;
    for (let tries = 2; tries <= MAX_EMAIL_ATTEMPTS; tries++) {
      const next = new Date(now.getTime() + 5 * MINUTE * 2 ** (tries - 2));
      expect(await retryEmails({ now: new Date(next.getTime() - 1), transport })).toMatchObject({ retried: 0 });
      const last = tries === MAX_EMAIL_ATTEMPTS;
      expect(await retryEmails({ now: next, transport })).toEqual({
        retried: 1,
        sent: 0,
        failed: last ? 0 : 1,
        gaveUp: last ? 1 : 0,
        remaining: 0,
      });
      now = next;
    }
    expect(now.getTime() - T0.getTime()).toBe(635 * MINUTE); // 5 + 10 + … + 320: inside Resend's 24-hour key window
    expect(await row(msg.idempotencyKey)).toMatchObject({
      status: "failed",
      attempts: MAX_EMAIL_ATTEMPTS,
      nextAttemptAt: null,
      error: "gave up after 8 tries: Resend answered HTTP 500: Something went wrong on our side.",
    });
    expect(String(log.mock.calls.at(-1)![0])).toBe(
      `[email] ${msg.idempotencyKey} not sent (try 8 of 8): gave up after 8 tries: Resend answered HTTP 500: Something went wrong on our side.`,
    );
    const sent = requestsFor(msg.idempotencyKey);
    expect(sent).toHaveLength(MAX_EMAIL_ATTEMPTS);
    expect(new Set(sent.map((r) => r.body)).size).toBe(1);

    expect(await retryEmails({ now: at(30 * 24 * 60 * MINUTE), transport })).toMatchObject({ retried: 0, gaveUp: 0 });
    expect(requestsFor(msg.idempotencyKey)).toHaveLength(MAX_EMAIL_ATTEMPTS);
  });

  it("an e-mail left pending by a process that stopped mid-try is sent once its try's 10-minute lease has run out", async () => {
    const msg = message();
    // What sendEmail writes before its first try, the process then gone.
    await db.email.create({
      data: { ...msg, transport: "resend", status: "pending", attempts: 1, nextAttemptAt: at(10 * MINUTE) },
    });
    // And one written before tries were counted (no time set), created at T0.
    const legacy = message();
    await db.email.create({ data: { ...legacy, transport: "resend", status: "pending", createdAt: T0 } });

    expect(await retryEmails({ now: at(10 * MINUTE - 1), transport })).toMatchObject({ retried: 0 });
    expect(await retryEmails({ now: at(10 * MINUTE), transport })).toEqual({
      retried: 2,
      sent: 2,
      failed: 0,
      gaveUp: 0,
      remaining: 0,
    });
    expect(await row(msg.idempotencyKey)).toMatchObject({ status: "sent", attempts: 2 });
    expect(await row(legacy.idempotencyKey)).toMatchObject({ status: "sent", attempts: 1 });
    expect(requestsFor(msg.idempotencyKey)).toHaveLength(1);
    expect(requestsFor(legacy.idempotencyKey)).toHaveLength(1);
  });

  it("an e-mail whose last try was cut off is given up, not left pending", async () => {
    const msg = message();
    await db.email.create({
      data: {
        ...msg,
        transport: "resend",
        status: "pending",
        attempts: MAX_EMAIL_ATTEMPTS,
        nextAttemptAt: at(10 * MINUTE),
      },
    });
    expect(await retryEmails({ now: at(10 * MINUTE - 1), transport })).toMatchObject({ gaveUp: 0 });
    expect(await retryEmails({ now: at(10 * MINUTE), transport })).toEqual({
      retried: 0,
      sent: 0,
      failed: 0,
      gaveUp: 1,
      remaining: 0,
    });
    expect(await row(msg.idempotencyKey)).toMatchObject({
      status: "failed",
      nextAttemptAt: null,
      error: "gave up after 8 tries: the last one was cut off before Resend answered",
    });
    expect(requestsFor(msg.idempotencyKey)).toHaveLength(0);
  });

  it("two runs at once send each due e-mail once; sent and outbox e-mails are never sent", async () => {
    quiet();
    const due = [message(), message(), message(), message(), message()];
    for (const msg of due) {
      failures.set(msg.idempotencyKey, 1);
      await sendEmail(msg, transport, T0);
    }
    const sentOnce = message();
    await sendEmail(sentOnce, transport, T0);
    vi.spyOn(console, "log").mockImplementation(() => {});
    const outbox = await sendEmail(message(), { kind: "outbox" }, T0);

    const [a, b] = await Promise.all([retryEmails({ now: at(5 * MINUTE), transport }), retryEmails({ now: at(5 * MINUTE), transport })]);
    expect(a.retried + b.retried).toBe(due.length);
    expect(a.sent + b.sent).toBe(due.length);
    for (const msg of due) {
      expect(requestsFor(msg.idempotencyKey)).toHaveLength(2);
      expect(await row(msg.idempotencyKey)).toMatchObject({ status: "sent", attempts: 2 });
    }
    expect(requestsFor(sentOnce.idempotencyKey)).toHaveLength(1);
    expect(requestsFor(outbox.idempotencyKey)).toHaveLength(0);
    expect(await row(outbox.idempotencyKey)).toMatchObject({ status: "outbox", attempts: 0 });
  });

  it("without Resend configured, does nothing: the e-mails wait for RESEND_API_KEY", async () => {
    quiet();
    const msg = message();
    failures.set(msg.idempotencyKey, 1);
    await sendEmail(msg, transport, T0);
    expect(await retryEmails({ now: at(60 * MINUTE), transport: { kind: "outbox" } })).toEqual({
      retried: 0,
      sent: 0,
      failed: 0,
      gaveUp: 0,
      remaining: 0,
    });
    expect(await row(msg.idempotencyKey)).toMatchObject({ status: "failed", attempts: 1 });
    expect(requestsFor(msg.idempotencyKey)).toHaveLength(1);
  });
});
