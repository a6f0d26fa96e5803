import "server-only";
import { db } from "@/lib/db";
import { deliverEmail, EMAIL_TRY_LEASE_MS } from "@/lib/email/deliver-email";
import { type EmailTransport, emailTransportFromEnv, pacerOf } from "@/lib/email/email-transport";
import { realClock, takeSendSlot } from "@/lib/email/send-pacer";
import { env } from "@/lib/env";
import type { Email, Prisma } from "@/lib/generated/prisma/client";

export type EmailMessage = {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Names the event the e-mail is about (e.g. `agent-offline:<id>:<time>`): one e-mail per key, ever. */
  idempotencyKey: string;
};

// A sign-in link waits this long at most for its turn in Resend's rate; past it, the sender cron
// sends it (the queue holds the next seconds, or Resend asked for a pause).
export const SIGN_IN_SLOT_WAIT_MS = 5_000;

/**
 * Queues the e-mail for the sender (lib/email/send-queued-emails.ts, the send-messages cron) and
 * returns: no provider is called here. The row is keyed by the idempotency key, so a retried job
 * (or a second run racing this one) finds it and queues nothing. Without RESEND_API_KEY the row is
 * the development outbox, as it always was (printed in development). Every e-mail about an event
 * (health checks, disputes, the release sweep) goes this way.
 */
export async function queueEmail(
  message: EmailMessage,
  transport: EmailTransport = emailTransportFromEnv(),
  now: Date = new Date(),
): Promise<Email> {
  await queueEmails([message], transport, now);
  return db.email.findUniqueOrThrow({ where: { idempotencyKey: message.idempotencyKey } });
}

/**
 * queueEmail for many e-mails in one statement (the release sweep's hundreds): how many were new.
 * Plain SQL over arrays: Prisma's createMany binds every value of every row separately, and took
 * a second for a hundred e-mails on a busy machine, against milliseconds for this. Pass the
 * transaction that records the event (`client`), so the e-mails are queued exactly when it happens.
 */
export async function queueEmails(
  messages: EmailMessage[],
  transport: EmailTransport = emailTransportFromEnv(),
  now: Date = new Date(),
  client: Prisma.TransactionClient = db,
): Promise<number> {
  if (messages.length === 0) return 0;
  const outbox = transport.kind === "outbox";
  const column = (key: keyof EmailMessage) => messages.map((m) => m[key]);
  const created = await client.$queryRaw<{ key: string }[]>`
    INSERT INTO emails (id, idempotency_key, "to", subject, text, html, transport, status, next_attempt_at)
    SELECT gen_random_uuid(), m.key, m.to, m.subject, m.text, m.html, ${outbox ? "outbox" : "resend"},
           ${outbox ? "outbox" : "queued"}, ${outbox ? null : now}::timestamptz
    FROM unnest(${column("idempotencyKey")}::text[], ${column("to")}::text[], ${column("subject")}::text[],
                ${column("text")}::text[], ${column("html")}::text[]) AS m(key, "to", subject, text, html)
    ON CONFLICT (idempotency_key) DO NOTHING
    RETURNING idempotency_key AS key`;
  if (outbox) {
    const keys = new Set(created.map((c) => c.key));
    for (const message of messages) if (keys.delete(message.idempotencyKey)) keepInOutbox(message);
  }
  return created.length;
}

/**
 * Records the e-mail and sends it at once: for a sign-in link, which a person is waiting for. It
 * takes its turn in Resend's rate with the sender's e-mails (waiting SIGN_IN_SLOT_WAIT_MS at
 * most; past that it is left queued for the sender). Like queueEmail it is keyed by the
 * idempotency key; a provider failure is stored on the row and logged, never thrown, and the
 * sender tries again later with the same key.
 */
export async function sendEmail(
  message: EmailMessage,
  transport: EmailTransport = emailTransportFromEnv(),
  now: Date = new Date(),
): Promise<Email> {
  if (transport.kind === "outbox") return queueEmail(message, transport, now);
  // "pending", this being its first try, until Resend answers: a process that stops in between
  // leaves a row the sender takes up once the try's lease has run out.
  const [created] = await db.email.createManyAndReturn({
    data: [
      {
        ...message,
        transport: "resend",
        status: "pending",
        attempts: 1,
        nextAttemptAt: new Date(now.getTime() + EMAIL_TRY_LEASE_MS),
        lastAttemptAt: now,
      },
    ],
    skipDuplicates: true,
  });
  if (!created) return db.email.findUniqueOrThrow({ where: { idempotencyKey: message.idempotencyKey } });

  const slot = await takeSendSlot(pacerOf(transport), now, new Date(now.getTime() + SIGN_IN_SLOT_WAIT_MS));
  if (!slot) {
    console.warn(`[email] ${message.idempotencyKey} queued for the sender: Resend's rate has no free turn in the next seconds`);
    await db.email.updateMany({
      where: { id: created.id, status: "pending", attempts: 1 },
      data: { status: "queued", attempts: 0, nextAttemptAt: now, lastAttemptAt: null },
    });
    return db.email.findUniqueOrThrow({ where: { id: created.id } });
  }
  await realClock.sleepUntil(new Date(Date.now() + (slot.getTime() - now.getTime())));
  return (await deliverEmail(created, transport, slot)).email;
}

function keepInOutbox(email: EmailMessage): void {
  // The body may hold a sign-in link: it is printed in development only, never to a server log.
  if (env.NODE_ENV === "production")
    console.warn(`[email] ${email.idempotencyKey} kept in the outbox, not sent: RESEND_API_KEY is not set`);
  else printToConsole(email);
}

function printToConsole(email: EmailMessage): void {
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
