import "server-only";
import { Resend } from "resend";
import { db } from "@/lib/db";
import { pacerOf, type ResendTransport } from "@/lib/email/email-transport";
import { pauseSending } from "@/lib/email/send-pacer";
import type { Email } from "@/lib/generated/prisma/client";

// An e-mail gets at most this many tries, the first when the sender first takes it and then one
// 5, 10, 20 … 320 minutes after each failure: the last about 10.6 hours after the first, well
// inside the 24 hours in which Resend recognises a repeated Idempotency-Key (so a try that reached
// Resend but whose answer was lost is not delivered twice). A 429 is no try (below).
export const MAX_EMAIL_ATTEMPTS = 8;
const RETRY_BASE_MS = 5 * 60_000;
// A try still `pending` this long after it began was cut off (the process stopped): due again.
export const EMAIL_TRY_LEASE_MS = 10 * 60_000;
export const RESEND_TIMEOUT_MS = 10_000;
// A 429's Retry-After is waited out, within these bounds (a missing or unreadable one: 1 s).
const MIN_RETRY_AFTER_MS = 1_000;
const MAX_RETRY_AFTER_MS = 3_600_000;

export type EmailDelivery = { email: Email; outcome: "sent" | "failed" | "gaveUp" | "throttled" };

/**
 * One try at an e-mail whose row is `pending` and whose `attempts` already counts this try, begun
 * at `at`: Resend is asked to send it under its idempotency key, and the outcome recorded — `sent`;
 * `failed` and due again after a delay that doubles with each try, or at the last try failed for
 * good ("gave up after 8 tries: …"); or, on a 429 (Resend's rate limit, not the e-mail's fault),
 * due again after its Retry-After without counting the try, every sender of this API key paused
 * until then. A provider failure is logged, never thrown.
 */
export async function deliverEmail(email: Email, transport: ResendTransport, at: Date): Promise<EmailDelivery> {
  const outcome = await postToResend(transport, email);
  if (outcome.ok) {
    // Recorded whatever happened to the row meanwhile: it must never be sent again.
    const sent = await db.email.update({
      where: { id: email.id },
      data: { status: "sent", providerId: outcome.id, error: null, nextAttemptAt: null, lastAttemptAt: at },
    });
    return { email: sent, outcome: "sent" };
  }
  // Unless a later try has taken the row over (only after the lease ran out).
  const stillOurs = { id: email.id, status: "pending", attempts: email.attempts };
  if (outcome.retryAfterMs !== undefined) {
    const retryAt = new Date(at.getTime() + outcome.retryAfterMs);
    await pauseSending(pacerOf(transport), retryAt);
    console.warn(`[email] ${email.idempotencyKey} throttled by Resend (HTTP 429); no e-mail is sent before ${retryAt.toISOString()}`);
    await db.email.updateMany({
      where: stillOurs,
      data: {
        status: email.attempts > 1 ? "failed" : "queued",
        attempts: email.attempts - 1,
        error: outcome.error,
        nextAttemptAt: retryAt,
        lastAttemptAt: at,
      },
    });
    return { email: await db.email.findUniqueOrThrow({ where: { id: email.id } }), outcome: "throttled" };
  }
  const last = email.attempts >= MAX_EMAIL_ATTEMPTS;
  const error = last ? `gave up after ${email.attempts} tries: ${outcome.error}` : outcome.error;
  const nextAttemptAt = last ? null : new Date(at.getTime() + RETRY_BASE_MS * 2 ** (email.attempts - 1));
  console.error(
    `[email] ${email.idempotencyKey} not sent (try ${email.attempts} of ${MAX_EMAIL_ATTEMPTS}): ` +
      (last ? error : `${error}; next try at ${nextAttemptAt!.toISOString()}`),
  );
  await db.email.updateMany({ where: stillOurs, data: { status: "failed", error, nextAttemptAt, lastAttemptAt: at } });
  return { email: await db.email.findUniqueOrThrow({ where: { id: email.id } }), outcome: last ? "gaveUp" : "failed" };
}

type ResendOutcome = { ok: true; id: string } | { ok: false; error: string; retryAfterMs?: number };

async function postToResend(transport: ResendTransport, email: Email): Promise<ResendOutcome> {
  const resend = new Resend(transport.apiKey, { baseUrl: transport.baseUrl });
  const signal = AbortSignal.timeout(RESEND_TIMEOUT_MS);
  const { data, error, headers } = await resend.emails.send(
    { from: transport.from, to: [email.to], subject: email.subject, text: email.text, html: email.html },
    // Resend drops a repeat of the same key within 24 hours: a second guard behind our row.
    { idempotencyKey: email.idempotencyKey, signal },
  );
  if (data) return { ok: true, id: data.id };
  // The SDK answers every network failure alike; the signal tells a timeout apart.
  if (signal.aborted) return { ok: false, error: `no answer from Resend within ${RESEND_TIMEOUT_MS} ms` };
  if (!error?.statusCode) return { ok: false, error: `Resend unreachable: ${error?.message ?? "no answer"}` };
  const answer = `Resend answered HTTP ${error.statusCode}: ${error.message.slice(0, 300)}`;
  if (error.statusCode === 429) return { ok: false, error: answer, retryAfterMs: retryAfterMs(headers) };
  return { ok: false, error: answer };
}

// Resend sends `retry-after` in seconds (and `ratelimit-reset`, the seconds until its window ends).
function retryAfterMs(headers: Record<string, string> | null): number {
  const seconds = Number(headers?.["retry-after"] ?? headers?.["ratelimit-reset"]);
  const ms = Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : MIN_RETRY_AFTER_MS;
  return Math.min(MAX_RETRY_AFTER_MS, Math.max(MIN_RETRY_AFTER_MS, ms));
}
