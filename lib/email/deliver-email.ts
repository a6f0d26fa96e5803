import "server-only";
import { Resend } from "resend";
import { db } from "@/lib/db";
import type { ResendTransport } from "@/lib/email/email-transport";
import type { Email } from "@/lib/generated/prisma/client";

// An e-mail gets at most this many tries, the first when it is sent and then one 5, 10, 20 … 320
// minutes after each failure: the last about 10.6 hours after the first, well inside the 24 hours
// in which Resend recognises a repeated Idempotency-Key (so a try that reached Resend but whose
// answer was lost is not delivered twice).
export const MAX_EMAIL_ATTEMPTS = 8;
const RETRY_BASE_MS = 5 * 60_000;
// A try still `pending` this long after it began was cut off (the process stopped): due again.
export const EMAIL_TRY_LEASE_MS = 10 * 60_000;
export const RESEND_TIMEOUT_MS = 10_000;

/**
 * One try at an e-mail whose row is `pending` and whose `attempts` already counts this try:
 * Resend is asked to send it under its idempotency key, and the outcome recorded — `sent`, or
 * `failed` and due again after a delay that doubles with each try, or, at the last try, failed for
 * good ("gave up after 8 tries: …"). A provider failure is logged, never thrown.
 */
export async function deliverEmail(email: Email, transport: ResendTransport, now: Date): Promise<Email> {
  const outcome = await postToResend(transport, email);
  if (outcome.ok) {
    // Recorded whatever happened to the row meanwhile: it must never be sent again.
    return db.email.update({
      where: { id: email.id },
      data: { status: "sent", providerId: outcome.id, error: null, nextAttemptAt: null },
    });
  }
  const last = email.attempts >= MAX_EMAIL_ATTEMPTS;
  const error = last ? `gave up after ${email.attempts} tries: ${outcome.error}` : outcome.error;
  const nextAttemptAt = last ? null : new Date(now.getTime() + RETRY_BASE_MS * 2 ** (email.attempts - 1));
  console.error(
    `[email] ${email.idempotencyKey} not sent (try ${email.attempts} of ${MAX_EMAIL_ATTEMPTS}): ` +
      (last ? error : `${error}; next try at ${nextAttemptAt!.toISOString()}`),
  );
  // Unless a later try has taken the row over (only after the lease ran out).
  await db.email.updateMany({
    where: { id: email.id, status: "pending", attempts: email.attempts },
    data: { status: "failed", error, nextAttemptAt },
  });
  return db.email.findUniqueOrThrow({ where: { id: email.id } });
}

type ResendOutcome = { ok: true; id: string } | { ok: false; error: string };

async function postToResend(transport: ResendTransport, email: Email): Promise<ResendOutcome> {
  const resend = new Resend(transport.apiKey, { baseUrl: transport.baseUrl });
  const signal = AbortSignal.timeout(RESEND_TIMEOUT_MS);
  const { data, error } = await resend.emails.send(
    { from: transport.from, to: [email.to], subject: email.subject, text: email.text, html: email.html },
    // Resend drops a repeat of the same key within 24 hours: a second guard behind our row.
    { idempotencyKey: email.idempotencyKey, signal },
  );
  if (data) return { ok: true, id: data.id };
  // The SDK answers every network failure alike; the signal tells a timeout apart.
  if (signal.aborted) return { ok: false, error: `no answer from Resend within ${RESEND_TIMEOUT_MS} ms` };
  if (!error?.statusCode) return { ok: false, error: `Resend unreachable: ${error?.message ?? "no answer"}` };
  return { ok: false, error: `Resend answered HTTP ${error.statusCode}: ${error.message.slice(0, 300)}` };
}
