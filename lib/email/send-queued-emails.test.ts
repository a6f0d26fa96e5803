// The e-mail sender against a local stand-in for api.resend.com that records every request:
// queueing sends nothing; the sender sends each queued e-mail once (two runs at once too), at the
// rate, waits out a 429's Retry-After, retries failures with a doubling delay, gives up after 8
// tries, and stops inside its time budget. Clocks are given and jump (test/send-clock.ts): the
// pacing is read from the times the sender recorded, never from the machine's speed.
import { randomBytes } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { MAX_EMAIL_ATTEMPTS } from "@/lib/email/deliver-email";
import type { ResendTransport } from "@/lib/email/email-transport";
import { type EmailMessage, queueEmail, queueEmails } from "@/lib/email/send-email";
import { sendQueuedEmails } from "@/lib/email/send-queued-emails";
import { startWebhook } from "@/test/fixtures";
import { isolateDatabase } from "@/test/private-database";
import { jumpingClock } from "@/test/send-clock";

// Every due e-mail of its database is the sender's: this file's only.
isolateDatabase("send_emails");

const SECOND = 1_000;
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

// Answers 500 to the next `failures[key]` requests carrying that key, 429 with `Retry-After:
// throttles[key]` seconds to the next one carrying it, then 200 with an id.
const failures = new Map<string, number>();
const throttles = new Map<string, number>();
let resend: Awaited<ReturnType<typeof startWebhook>>;
beforeAll(async () => {
  resend = await startWebhook((req, res) => {
    const key = String(req.headers["idempotency-key"]);
    const json = { "content-type": "application/json" };
    const retryAfter = throttles.get(key);
    if (retryAfter !== undefined) {
      throttles.delete(key);
      return res.writeHead(429, { ...json, "retry-after": String(retryAfter) }).end(
        JSON.stringify({
          statusCode: 429,
          name: "rate_limit_exceeded",
          message: "Too many requests. You can only make 2 requests per second.",
        }),
      );
    }
    const left = failures.get(key) ?? 0;
    if (left > 0) {
      failures.set(key, left - 1);
      return res
        .writeHead(500, json)
        .end(JSON.stringify({ statusCode: 500, name: "internal_server_error", message: "Something went wrong on our side." }));
    }
    res.writeHead(200, json).end(JSON.stringify({ id: `re-${key}` }));
  });
});
afterAll(() => resend.close());
afterEach(async () => {
  vi.restoreAllMocks();
  // Each test starts with no e-mail due: what it leaves behind is given up.
  await db.email.updateMany({
    where: { status: { in: ["queued", "pending", "failed"] } },
    data: { status: "failed", attempts: MAX_EMAIL_ATTEMPTS, nextAttemptAt: null },
  });
});

/** A Resend account of its own (its own share of the rate: the pacer is per API key). */
const account = (ratePerSecond = 2): ResendTransport => ({
  kind: "resend",
  apiKey: `re_${randomBytes(12).toString("hex")}`,
  from: "Agent Rental <no-reply@example.com>",
  baseUrl: `http://127.0.0.1:${resend.port}`,
  ratePerSecond,
});

const requestsFor = (key: string) => resend.received.filter((r) => r.headers["idempotency-key"] === key);
const row = (key: string) => db.email.findUniqueOrThrow({ where: { idempotencyKey: key } });
const quiet = () => vi.spyOn(console, "error").mockImplementation(() => {});

/** When each try of these e-mails began, as the sender recorded it (ms after T0, in order). */
async function tryTimes(keys: string[]): Promise<number[]> {
  const rows = await db.email.findMany({ where: { idempotencyKey: { in: keys } }, select: { lastAttemptAt: true } });
  return rows.map((r) => r.lastAttemptAt!.getTime() - T0.getTime()).sort((a, b) => a - b);
}

/** The most tries begun in any one-second window. */
function mostInASecond(times: number[]): number {
  return Math.max(...times.map((t) => times.filter((u) => u >= t && u < t + SECOND).length));
}

describe("queueEmail", () => {
  it("stores the e-mail queued and due at once, and calls no provider; the same key again queues nothing", async () => {
    const transport = account();
    const msg = message();
    const queued = await queueEmail(msg, transport, T0);
    expect(queued).toMatchObject({ transport: "resend", status: "queued", attempts: 0, nextAttemptAt: T0, providerId: null });
    expect((await queueEmail({ ...msg, subject: "Changed" }, transport, T0)).id).toBe(queued.id);
    expect(await queueEmails([msg, message()], transport, T0)).toBe(1); // the new one only
    expect(requestsFor(msg.idempotencyKey)).toHaveLength(0);
    expect(await row(msg.idempotencyKey)).toMatchObject({ subject: "Your agent is offline", status: "queued" });
  });
});

describe("sendQueuedEmails (the sender)", () => {
  it("sends each queued e-mail once under its Idempotency-Key, 2 a second at most, and records it sent", async () => {
    const transport = account(2);
    const msgs = Array.from({ length: 9 }, () => message());
    await queueEmails(msgs, transport, T0);

    expect(await sendQueuedEmails({ clock: jumpingClock(T0), transport })).toEqual({
      tried: 9,
      sent: 9,
      failed: 0,
      gaveUp: 0,
      throttled: 0,
      remaining: 0,
    });
    for (const msg of msgs) {
      const [request] = requestsFor(msg.idempotencyKey);
      expect(requestsFor(msg.idempotencyKey)).toHaveLength(1);
      expect([request.method, request.url, request.headers.authorization]).toEqual(["POST", "/emails", `Bearer ${transport.apiKey}`]);
      expect(JSON.parse(request.body)).toEqual({
        from: transport.from,
        to: [msg.to],
        subject: msg.subject,
        text: msg.text,
        html: msg.html,
      });
      expect(await row(msg.idempotencyKey)).toMatchObject({
        status: "sent",
        providerId: `re-${msg.idempotencyKey}`,
        attempts: 1,
        nextAttemptAt: null,
        error: null,
      });
    }
    // A slot every 500 ms from T0: nine e-mails take 4 s, never three in a second.
    const times = await tryTimes(msgs.map((m) => m.idempotencyKey));
    expect(times).toEqual([0, 500, 1000, 1500, 2000, 2500, 3000, 3500, 4000]);
    expect(mostInASecond(times)).toBe(2);

    // Sent: never sent again, however late the sender runs.
    expect(await sendQueuedEmails({ clock: jumpingClock(at(30 * 24 * 60 * MINUTE)), transport })).toMatchObject({ tried: 0 });
    expect(msgs.every((m) => requestsFor(m.idempotencyKey).length === 1)).toBe(true);
  });

  it("two runs at once send each e-mail exactly once, and keep the rate together", async () => {
    const transport = account(2);
    const msgs = Array.from({ length: 12 }, () => message());
    await queueEmails(msgs, transport, T0);
    const clock = jumpingClock(T0);
    const [a, b] = await Promise.all([sendQueuedEmails({ clock, transport }), sendQueuedEmails({ clock, transport })]);
    expect(a.sent + b.sent).toBe(12);
    expect(a.tried + b.tried).toBe(12);
    expect(a.sent).toBeGreaterThan(0);
    expect(b.sent).toBeGreaterThan(0);
    for (const msg of msgs) expect(requestsFor(msg.idempotencyKey)).toHaveLength(1);
    const times = await tryTimes(msgs.map((m) => m.idempotencyKey));
    expect(times.slice(1).every((t, i) => t - times[i] >= 500)).toBe(true);
    expect(mostInASecond(times)).toBe(2);
  });

  it("another rate is kept too (EMAIL_SEND_RATE_PER_SECOND): 5 a second", async () => {
    const transport = account(5);
    const msgs = Array.from({ length: 11 }, () => message());
    await queueEmails(msgs, transport, T0);
    expect(await sendQueuedEmails({ clock: jumpingClock(T0), transport })).toMatchObject({ sent: 11 });
    const times = await tryTimes(msgs.map((m) => m.idempotencyKey));
    expect(times.at(-1)).toBe(2000);
    expect(mostInASecond(times)).toBe(5);
  });

  it("a 429 is tried again after its Retry-After, not counted as a try, and no e-mail is sent before then", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const transport = account(2);
    const [throttled, second, third] = [message(), message(), message()];
    await queueEmails([throttled], transport, T0);
    await queueEmails([second, third], transport, T0);
    throttles.set(throttled.idempotencyKey, 7);

    expect(await sendQueuedEmails({ clock: jumpingClock(T0), transport })).toEqual({
      tried: 4,
      sent: 3,
      failed: 0,
      gaveUp: 0,
      throttled: 1,
      remaining: 0,
    });
    expect(requestsFor(throttled.idempotencyKey)).toHaveLength(2);
    expect(await row(throttled.idempotencyKey)).toMatchObject({ status: "sent", attempts: 1 });
    // Nothing was sent in the 7 seconds Resend asked for; then the others, then the throttled one
    // (due at T0 + 7 s, after them).
    expect(await tryTimes([second.idempotencyKey])).toEqual([7000]);
    expect(await tryTimes([third.idempotencyKey])).toEqual([7500]);
    expect(await tryTimes([throttled.idempotencyKey])).toEqual([8000]);
    expect(String(warn.mock.calls[0][0])).toBe(
      `[email] ${throttled.idempotencyKey} throttled by Resend (HTTP 429); no e-mail is sent before ${at(7000).toISOString()}`,
    );
  });

  it("a 429 whose wait runs past the run's budget leaves the e-mails queued for the next run", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const transport = account(2);
    const msgs = [message(), message()];
    await queueEmails(msgs, transport, T0);
    throttles.set(msgs[0].idempotencyKey, 600);
    expect(await sendQueuedEmails({ clock: jumpingClock(T0), transport })).toMatchObject({
      tried: 1,
      sent: 0,
      throttled: 1,
      remaining: 1, // the other; the throttled one is due again after the pause
    });
    expect(await row(msgs[0].idempotencyKey)).toMatchObject({ status: "queued", attempts: 0, nextAttemptAt: at(600 * SECOND) });
    expect(requestsFor(msgs[1].idempotencyKey)).toHaveLength(0);
    // The next run after the pause sends both.
    expect(await sendQueuedEmails({ clock: jumpingClock(at(601 * SECOND)), transport })).toMatchObject({ sent: 2, remaining: 0 });
  });

  it("stops within its time budget, the last try able to finish inside it, and leaves the rest for the next run", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const transport = account(2);
    const msgs = Array.from({ length: 30 }, () => message());
    await queueEmails(msgs, transport, T0);
    const clock = jumpingClock(T0);
    // 15 s of budget, less a try's 10 s timeout: slots from 0 to 5 s.
    expect(await sendQueuedEmails({ clock, transport, budgetMs: 15_000 })).toMatchObject({ sent: 11, remaining: 19 });
    expect(await db.email.count({ where: { idempotencyKey: { in: msgs.map((m) => m.idempotencyKey) }, status: "queued" } })).toBe(19);
    clock.advance(MINUTE);
    expect(await sendQueuedEmails({ clock, transport })).toMatchObject({ sent: 19, remaining: 0 });
    expect(msgs.every((m) => requestsFor(m.idempotencyKey).length === 1)).toBe(true);
  });

  it("a try that fails (HTTP 500) is due again in 5 minutes and sent then with the same Idempotency-Key", async () => {
    quiet();
    const transport = account();
    const msg = message();
    failures.set(msg.idempotencyKey, 1);
    await queueEmail(msg, transport, T0);
    expect(await sendQueuedEmails({ clock: jumpingClock(T0), transport })).toMatchObject({ tried: 1, failed: 1, remaining: 0 });
    expect(await row(msg.idempotencyKey)).toMatchObject({
      status: "failed",
      attempts: 1,
      nextAttemptAt: at(5 * MINUTE),
      error: "Resend answered HTTP 500: Something went wrong on our side.",
    });
    expect(await sendQueuedEmails({ clock: jumpingClock(at(5 * MINUTE - 1)), transport })).toMatchObject({ tried: 0 });
    expect(await sendQueuedEmails({ clock: jumpingClock(at(5 * MINUTE)), transport })).toMatchObject({ tried: 1, sent: 1 });
    const [first, second] = requestsFor(msg.idempotencyKey);
    expect(second.body).toBe(first.body);
    expect(await row(msg.idempotencyKey)).toMatchObject({ status: "sent", attempts: 2, error: null, nextAttemptAt: null });
  });

  it(`gives up after ${MAX_EMAIL_ATTEMPTS} tries, 5, 10, 20 … 320 minutes apart: failed, with a final error`, async () => {
    const log = quiet();
    const transport = account();
    const msg = message();
    failures.set(msg.idempotencyKey, 1_000);
    await queueEmail(msg, transport, T0);
    expect(await sendQueuedEmails({ clock: jumpingClock(T0), transport })).toMatchObject({ failed: 1 });

    let now = T0;
    for (let tries = 2; tries <= MAX_EMAIL_ATTEMPTS; tries++) {
      const next = new Date(now.getTime() + 5 * MINUTE * 2 ** (tries - 2));
      expect(await sendQueuedEmails({ clock: jumpingClock(new Date(next.getTime() - 1)), transport })).toMatchObject({ tried: 0 });
      const last = tries === MAX_EMAIL_ATTEMPTS;
      expect(await sendQueuedEmails({ clock: jumpingClock(next), transport })).toEqual({
        tried: 1,
        sent: 0,
        failed: last ? 0 : 1,
        gaveUp: last ? 1 : 0,
        throttled: 0,
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
    expect(requestsFor(msg.idempotencyKey)).toHaveLength(MAX_EMAIL_ATTEMPTS);
    expect(await sendQueuedEmails({ clock: jumpingClock(at(30 * 24 * 60 * MINUTE)), transport })).toMatchObject({ tried: 0, gaveUp: 0 });
  });

  it("an e-mail left pending by a process that stopped mid-try is sent once its try's 10-minute lease has run out", async () => {
    const transport = account();
    const msg = message();
    // What sendEmail (a sign-in link) writes before its first try, the process then gone.
    await db.email.create({ data: { ...msg, transport: "resend", status: "pending", attempts: 1, nextAttemptAt: at(10 * MINUTE) } });
    // And one written before tries were counted (no time set), created at T0.
    const legacy = message();
    await db.email.create({ data: { ...legacy, transport: "resend", status: "pending", createdAt: T0 } });

    expect(await sendQueuedEmails({ clock: jumpingClock(at(10 * MINUTE - 1)), transport })).toMatchObject({ tried: 0 });
    expect(await sendQueuedEmails({ clock: jumpingClock(at(10 * MINUTE)), transport })).toMatchObject({ tried: 2, sent: 2 });
    expect(await row(msg.idempotencyKey)).toMatchObject({ status: "sent", attempts: 2 });
    expect(await row(legacy.idempotencyKey)).toMatchObject({ status: "sent", attempts: 1 });
  });

  it("an e-mail whose last try was cut off is given up, not left pending", async () => {
    const transport = account();
    const msg = message();
    await db.email.create({
      data: { ...msg, transport: "resend", status: "pending", attempts: MAX_EMAIL_ATTEMPTS, nextAttemptAt: at(10 * MINUTE) },
    });
    expect(await sendQueuedEmails({ clock: jumpingClock(at(10 * MINUTE - 1)), transport })).toMatchObject({ gaveUp: 0 });
    expect(await sendQueuedEmails({ clock: jumpingClock(at(10 * MINUTE)), transport })).toMatchObject({ tried: 0, gaveUp: 1 });
    expect(await row(msg.idempotencyKey)).toMatchObject({
      status: "failed",
      nextAttemptAt: null,
      error: "gave up after 8 tries: the last one was cut off before Resend answered",
    });
    expect(requestsFor(msg.idempotencyKey)).toHaveLength(0);
  });

  it("without Resend configured, does nothing: queued e-mails wait for RESEND_API_KEY; outbox e-mails are never sent", async () => {
    vi.spyOn(console, "log").mockImplementation(() => {});
    const transport = account();
    const msg = message();
    await queueEmail(msg, transport, T0);
    const outbox = await queueEmail(message(), { kind: "outbox" }, T0);
    expect(outbox).toMatchObject({ transport: "outbox", status: "outbox", attempts: 0 });
    expect(await sendQueuedEmails({ clock: jumpingClock(T0), transport: { kind: "outbox" } })).toMatchObject({ tried: 0, remaining: 0 });
    expect(await row(msg.idempotencyKey)).toMatchObject({ status: "queued" });
    expect(await sendQueuedEmails({ clock: jumpingClock(T0), transport })).toMatchObject({ tried: 1, sent: 1 });
    expect(requestsFor(outbox.idempotencyKey)).toHaveLength(0);
    expect(await row(outbox.idempotencyKey)).toMatchObject({ status: "outbox" });
  });
});
