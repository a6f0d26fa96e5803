import { randomBytes } from "node:crypto";
import { renderToStaticMarkup } from "react-dom/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { sendEmail } from "@/lib/email/send-email";

afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
  vi.restoreAllMocks();
});

describe("/dev/outbox", () => {
  it("lists the latest e-mails with time, recipient, subject and text, its addresses as links", async () => {
    vi.spyOn(console, "log").mockImplementation(() => {});
    const subject = `Outbox page ${randomBytes(4).toString("hex")} <b>`;
    await sendEmail({
      to: "page-owner@example.com",
      subject,
      text: "Line one\nSign in: https://example.com/sign-in/email?token=a_b-c.\nLine two",
      html: "<p>x</p>",
      idempotencyKey: `page:${subject}`,
    });
    const { default: OutboxPage } = await import("@/app/dev/outbox/page");
    const html = renderToStaticMarkup(await OutboxPage());
    expect(html).toContain("page-owner@example.com");
    expect(html).toContain(subject.replace("<b>", "&lt;b&gt;"));
    expect(html).toContain(
      'Line one\nSign in: <a href="https://example.com/sign-in/email?token=a_b-c">https://example.com/sign-in/email?token=a_b-c</a>.\nLine two',
    );
    expect(html).toMatch(/<time dateTime="\d{4}-\d\d-\d\dT/);
  });

  it("does not exist in production", async () => {
    vi.stubEnv("NODE_ENV", "production");
    const { default: OutboxPage } = await import("@/app/dev/outbox/page");
    await expect(OutboxPage()).rejects.toMatchObject({ digest: expect.stringContaining("404") });
  });
});
