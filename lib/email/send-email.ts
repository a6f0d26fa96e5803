import "server-only";
import { db } from "@/lib/db";
import { deliverEmail, EMAIL_TRY_LEASE_MS } from "@/lib/email/deliver-email";
import { type EmailTransport, emailTransportFromEnv } from "@/lib/email/email-transport";
import { env } from "@/lib/env";
import type { Email } from "@/lib/generated/prisma/client";

export type EmailMessage = {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Names the event the e-mail is about (e.g. `agent-offline:<id>:<time>`): one e-mail per key, ever. */
  idempotencyKey: string;
};

/**
 * Records the e-mail, then sends it. The row is inserted first, keyed by the idempotency key, so
 * a retried job (or a second run racing this one) finds it and sends nothing. A provider failure
 * is stored on the row and logged, never thrown: the caller's work is done either way, and the
 * retry cron (lib/email/retry-emails.ts) tries again later with the same key.
 */
export async function sendEmail(
  message: EmailMessage,
  transport: EmailTransport = emailTransportFromEnv(),
  now: Date = new Date(),
): Promise<Email> {
  const [created] = await db.email.createManyAndReturn({
    data: [
      transport.kind === "outbox"
        ? { ...message, transport: "outbox", status: "outbox" }
        : // "pending", this being its first try, until Resend answers: a process that stops in
          // between leaves a row the retry cron takes up once the try's lease has run out.
          {
            ...message,
            transport: "resend",
            status: "pending",
            attempts: 1,
            nextAttemptAt: new Date(now.getTime() + EMAIL_TRY_LEASE_MS),
          },
    ],
    skipDuplicates: true,
  });
  if (!created) return db.email.findUniqueOrThrow({ where: { idempotencyKey: message.idempotencyKey } });

  if (transport.kind === "outbox") {
    // The body may hold a sign-in link: it is printed in development only, never to a server log.
    if (env.NODE_ENV === "production")
      console.warn(`[email] ${message.idempotencyKey} kept in the outbox, not sent: RESEND_API_KEY is not set`);
    else printToConsole(created);
    return created;
  }
  return deliverEmail(created, transport, now);
}

function printToConsole(email: Email): void {
  const rule = "─".repeat(72);
  console.log(
    [
      `── E-mail (dev outbox, not sent; see /dev/outbox) ${rule}`.slice(0, 72),
      `To:      ${email.to}`,
      `Subject: ${email.subject}`,
      "",
      email.text,
      rule,
    ].join("\n"),
  );
}
