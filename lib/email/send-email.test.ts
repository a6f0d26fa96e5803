import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { pacerOf, type ResendTransport } from "@/lib/email/email-transport";
import { type EmailMessage, SIGN_IN_SLOT_WAIT_MS, sendEmail } from "@/lib/email/send-email";
import { pauseSending } from "@/lib/email/send-pacer";
import { startWebhook } from "@/test/fixtures";

const message = (overrides: Partial<EmailMessage> = {}): EmailMessage => ({
  to: "owner@example.com",
  subject: "Your agent is offline",
  text: "Plain text body",
  html: "<p>HTML body</p>",
  idempotencyKey: `test:${randomBytes(8).toString("hex")}`,
  ...overrides,
});

afterEach(() => {
  vi.restoreAllMocks();
});

// sendEmail is the sign-in link's way, sent at once; every other e-mail is queued (queueEmail) for
// the sender (lib/email/send-queued-emails.test.ts).
describe("sendEmail without RESEND_API_KEY (the dev outbox)", () => {
  it("stores the e-mail as outbox and prints it once; a retry with the same key sends nothing", async () => {
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    const msg = message();
    const first = await sendEmail(msg);
    expect(first).toMatchObject({ to: "owner@example.com", transport: "outbox", status: "outbox", providerId: null });
    expect(log).toHaveBeenCalledTimes(1);
    const printed = String(log.mock.calls[0][0]);
    expect(printed).toContain("To:      owner@example.com");
    expect(printed).toContain("Subject: Your agent is offline");
    expect(printed).toContain("Plain text body");

    const again = await sendEmail({ ...msg, subject: "Changed" });
    expect(again.id).toBe(first.id);
    expect(again.subject).toBe("Your agent is offline");
    expect(log).toHaveBeenCalledTimes(1);
    expect(await db.email.count({ where: { idempotencyKey: msg.idempotencyKey } })).toBe(1);
  });

  it("stores one row when the same e-mail is sent twice at once", async () => {
    vi.spyOn(console, "log").mockImplementation(() => {});
    const msg = message();
    const [a, b] = await Promise.all([sendEmail(msg), sendEmail(msg)]);
    expect(a.id).toBe(b.id);
    expect(await db.email.count({ where: { idempotencyKey: msg.idempotencyKey } })).toBe(1);
  });
});

describe("sendEmail through Resend (the resend SDK, against a local stand-in for api.resend.com)", () => {
  const apiKey = `re_${randomBytes(12).toString("hex")}`;
  let resend: Awaited<ReturnType<typeof startWebhook>>;
  let transport: ResendTransport;
  beforeAll(async () => {
    resend = await startWebhook((req, res) => {
      const { subject } = JSON.parse(req.body);
      if (subject === "reject me") {
        return res
          .writeHead(422, { "content-type": "application/json" })
          .end(JSON.stringify({ statusCode: 422, name: "validation_error", message: "Invalid `to` field." }));
      }
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ id: `re-id-${resend.received.length}` }));
    });
    transport = {
      kind: "resend",
      apiKey,
      from: "Agent Rental <no-reply@example.com>",
      baseUrl: `http://127.0.0.1:${resend.port}`,
    };
  });
  afterAll(() => resend.close());

  it("POSTs /emails with the bearer key and Idempotency-Key, and stores the provider id", async () => {
    const msg = message();
    const email = await sendEmail(msg, transport);
    expect(email).toMatchObject({
      transport: "resend",
      status: "sent",
      providerId: expect.stringMatching(/^re-id-/),
      error: null,
      attempts: 1,
      nextAttemptAt: null,
    });

    const sent = resend.received.find((r) => r.headers["idempotency-key"] === msg.idempotencyKey)!;
    expect(sent.method).toBe("POST");
    expect(sent.url).toBe("/emails");
    expect(sent.headers.authorization).toBe(`Bearer ${apiKey}`);
    expect(sent.headers["content-type"]).toBe("application/json");
    expect(sent.headers["user-agent"]).toMatch(/^resend-node:/); // the official SDK made the call
    expect(JSON.parse(sent.body)).toEqual({
      from: "Agent Rental <no-reply@example.com>",
      to: ["owner@example.com"],
      subject: msg.subject,
      text: msg.text,
      html: msg.html,
    });

    const before = resend.received.length;
    expect((await sendEmail(msg, transport)).id).toBe(email.id);
    expect(resend.received.length).toBe(before);
  });

  it("stores a refusal as failed and due again in 5 minutes, logs one line without the key, and does not throw", async () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    const now = new Date("2030-01-01T12:00:00Z");
    const msg = message({ subject: "reject me" });
    const email = await sendEmail(msg, transport, now);
    expect(email).toMatchObject({
      status: "failed",
      providerId: null,
      error: "Resend answered HTTP 422: Invalid `to` field.",
      attempts: 1,
      nextAttemptAt: new Date("2030-01-01T12:05:00Z"),
    });
    expect(error).toHaveBeenCalledTimes(1);
    expect(String(error.mock.calls[0][0])).toBe(
      `[email] ${msg.idempotencyKey} not sent (try 1 of 8): Resend answered HTTP 422: Invalid \`to\` field.; next try at 2030-01-01T12:05:00.000Z`,
    );
    expect(String(error.mock.calls[0][0])).not.toContain(apiKey);
  });

  it("stores an unreachable provider as failed", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    // An account of its own: the test above took this one's slots at another time.
    const elsewhere = { ...transport, apiKey: `re_${randomBytes(12).toString("hex")}`, baseUrl: `http://127.0.0.1:${port}` };
    const email = await sendEmail(message(), elsewhere);
    expect(email).toMatchObject({
      status: "failed",
      error: expect.stringMatching(/^Resend unreachable: /),
      attempts: 1,
      nextAttemptAt: expect.any(Date),
    });
  });

  it("takes its turn in Resend's rate with the sender's e-mails: two links at once go out half a second apart", async () => {
    const own = { ...transport, apiKey: `re_${randomBytes(12).toString("hex")}`, ratePerSecond: 2 };
    const [a, b] = await Promise.all([sendEmail(message(), own), sendEmail(message(), own)]);
    expect([a.status, b.status]).toEqual(["sent", "sent"]);
    expect(Math.abs(a.lastAttemptAt!.getTime() - b.lastAttemptAt!.getTime())).toBeGreaterThanOrEqual(500);
  });

  it(`is left queued for the sender when Resend asked for a pause longer than ${SIGN_IN_SLOT_WAIT_MS / 1000} s`, async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const own = { ...transport, apiKey: `re_${randomBytes(12).toString("hex")}` };
    const now = new Date();
    await pauseSending(pacerOf(own), new Date(now.getTime() + 60_000));
    const msg = message();
    const before = resend.received.length;
    expect(await sendEmail(msg, own, now)).toMatchObject({ status: "queued", attempts: 0, nextAttemptAt: now, providerId: null });
    expect(resend.received.length).toBe(before);
    expect(String(warn.mock.calls[0][0])).toBe(
      `[email] ${msg.idempotencyKey} queued for the sender: Resend's rate has no free turn in the next seconds`,
    );
  });
});
