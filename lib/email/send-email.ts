import "server-only";
import { db } from "@/lib/db";
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

// Where e-mails go: Resend when RESEND_API_KEY is set, otherwise the development outbox (the
// row itself, the console and /dev/outbox). Tests pass a Resend transport aimed at a local server.
export type EmailTransport = { kind: "resend"; apiKey: string; from: string; baseUrl: string } | { kind: "outbox" };

const RESEND_TIMEOUT_MS = 10_000;

function transportFromEnv(): EmailTransport {
  if (!env.RESEND_API_KEY) return { kind: "outbox" };
  return { kind: "resend", apiKey: env.RESEND_API_KEY, from: env.EMAIL_FROM, baseUrl: "https://api.resend.com" };
}

/**
 * Records the e-mail, then sends it. The row is inserted first, keyed by the idempotency key, so
 * a retried job (or a second run racing this one) finds it and sends nothing. A provider failure
 * is stored on the row and logged, never thrown: the caller's work is done either way.
 */
export async function sendEmail(message: EmailMessage, transport: EmailTransport = transportFromEnv()): Promise<Email> {
  const [created] = await db.email.createManyAndReturn({
    // "pending" until Resend answers: a crash in between leaves a visible, unsent row.
    data: [{ ...message, transport: transport.kind, status: transport.kind === "outbox" ? "outbox" : "pending" }],
    skipDuplicates: true,
  });
  if (!created) return db.email.findUniqueOrThrow({ where: { idempotencyKey: message.idempotencyKey } });

  if (transport.kind === "outbox") {
    // The body may hold a sign-in link: it is printed in development only, never to a server log.
    if (env.NODE_ENV === "production") console.warn(`[email] ${message.idempotencyKey} kept in the outbox, not sent: RESEND_API_KEY is not set`);
    else printToConsole(created);
    return created;
  }
  const outcome = await postToResend(transport, message);
  if (!outcome.ok) console.error(`[email] ${message.idempotencyKey} not sent: ${outcome.error}`);
  return db.email.update({
    where: { id: created.id },
    data: outcome.ok ? { status: "sent", providerId: outcome.id } : { status: "failed", error: outcome.error },
  });
}

type ResendOutcome = { ok: true; id: string } | { ok: false; error: string };

async function postToResend(transport: Extract<EmailTransport, { kind: "resend" }>, message: EmailMessage): Promise<ResendOutcome> {
  let res: Response;
  try {
    res = await fetch(`${transport.baseUrl}/emails`, {
      method: "POST",
      headers: {
        Authorization: `Bearer ${transport.apiKey}`,
        "Content-Type": "application/json",
        // Resend drops a repeat of the same key within 24 hours: a second guard behind our row.
        "Idempotency-Key": message.idempotencyKey,
      },
      body: JSON.stringify({ from: transport.from, to: [message.to], subject: message.subject, text: message.text, html: message.html }),
      signal: AbortSignal.timeout(RESEND_TIMEOUT_MS),
    });
  } catch (error) {
    if (error instanceof Error && error.name === "TimeoutError") {
      return { ok: false, error: `no answer from Resend within ${RESEND_TIMEOUT_MS} ms` };
    }
    const code = (error as { cause?: { code?: string } }).cause?.code;
    return { ok: false, error: `Resend unreachable (${code ?? "network error"})` };
  }
  const body = (await res.json().catch(() => null)) as { id?: unknown; message?: unknown } | null;
  if (res.ok && typeof body?.id === "string") return { ok: true, id: body.id };
  const reason = typeof body?.message === "string" ? `: ${body.message.slice(0, 300)}` : "";
  return { ok: false, error: `Resend answered HTTP ${res.status}${reason}` };
}

function printToConsole(email: Email): void {
  const rule = "─".repeat(72);
  console.log(
    [`── E-mail (dev outbox, not sent; see /dev/outbox) ${rule}`.slice(0, 72), `To:      ${email.to}`, `Subject: ${email.subject}`, "", email.text, rule].join("\n"),
  );
}
