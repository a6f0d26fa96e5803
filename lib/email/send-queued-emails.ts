import "server-only";
import { db } from "@/lib/db";
import { deliverEmail, EMAIL_TRY_LEASE_MS, MAX_EMAIL_ATTEMPTS, RESEND_TIMEOUT_MS } from "@/lib/email/deliver-email";
import { type EmailTransport, emailTransportFromEnv, pacerOf } from "@/lib/email/email-transport";
import { realClock, type SendClock, takeSendSlot } from "@/lib/email/send-pacer";
import type { Email, Prisma } from "@/lib/generated/prisma/client";

export type EmailSendSummary = {
  tried: number; // tries made by this run (a 429 included)
  sent: number; // of which Resend took
  failed: number; // of which failed, due again later
  gaveUp: number; // e-mails failed for good in this run (their last try failed, or was cut off)
  throttled: number; // tries Resend answered 429: due again after its Retry-After, not counted
  remaining: number; // e-mails due when the run stopped (its time budget, or Resend's pause)
};

export type SendEmailsOptions = {
  clock?: SendClock;
  transport?: EmailTransport;
  /** How long the run may take (default SEND_BUDGET_MS). */
  budgetMs?: number;
  /** Only these e-mails (ids), if given. */
  only?: string[];
};

// Inside Vercel's 300 s (the route's maxDuration): no try starts later than its full timeout
// before this.
export const SEND_BUDGET_MS = 250_000;
// Tries in flight at once: half the rate (one at the default 2 a second), so a try whose answer
// takes up to half a second never delays the next slot, and at the default a 429 is known before
// the next try starts (the pause then holds it back).
const inFlightFor = (ratePerSecond: number) => Math.max(1, Math.floor(ratePerSecond / 2));

/**
 * The e-mail half of the sender (the send-messages cron, every minute): every due e-mail — queued,
 * failed and due again, or left `pending` by a process that stopped mid-try — is sent at Resend's
 * rate, each at a slot taken from the pacer all servers share (lib/email/send-pacer.ts), under its
 * idempotency key, up to MAX_EMAIL_ATTEMPTS tries (lib/email/deliver-email.ts). Rows are claimed
 * one at a time as their slot comes (FOR UPDATE SKIP LOCKED; the claim counts the try and leases
 * the row), so runs at once never send the same e-mail, and a `sent` row is never touched. The run
 * stops when nothing is due, or when the next slot would leave a try no time to finish inside
 * its budget; what is still due waits for the next run.
 */
export async function sendQueuedEmails(options: SendEmailsOptions = {}): Promise<EmailSendSummary> {
  const clock = options.clock ?? realClock;
  const transport = options.transport ?? emailTransportFromEnv();
  const summary: EmailSendSummary = { tried: 0, sent: 0, failed: 0, gaveUp: 0, throttled: 0, remaining: 0 };
  // Without Resend there is nothing to send with: the rows wait for RESEND_API_KEY.
  if (transport.kind !== "resend") return summary;

  const started = clock.now();
  const lastSlot = new Date(started.getTime() + (options.budgetMs ?? SEND_BUDGET_MS) - RESEND_TIMEOUT_MS);
  const only = options.only;
  summary.gaveUp += await giveUpCutOffLastTries(started, only);
  const pacer = pacerOf(transport);
  const maxInFlight = inFlightFor(1000 / pacer.intervalMs);
  const inFlight = new Set<Promise<void>>();
  for (;;) {
    const now = clock.now();
    if (!(await db.email.findFirst({ where: due(now, only), select: { id: true } }))) break;
    const slot = await takeSendSlot(pacer, now, lastSlot);
    if (!slot) break;
    await clock.sleepUntil(slot);
    const email = await claimNext(slot, only);
    if (!email) break; // another run took the last one
    const tried = deliverEmail(email, transport, slot).then(({ outcome }) => {
      summary.tried++;
      summary[outcome]++;
    });
    const settled = tried.finally(() => inFlight.delete(settled));
    inFlight.add(settled);
    if (inFlight.size >= maxInFlight) await Promise.race(inFlight);
  }
  await Promise.all(inFlight);
  summary.remaining = await db.email.count({ where: due(clock.now(), only) });
  if (summary.remaining > 0)
    console.warn(`[email] the sender stopped for its time budget or Resend's pause; ${summary.remaining} e-mail(s) left for the next run`);
  return summary;
}

// Due: queued, failed or cut off, tries left, and its time come. Rows written before tries were
// counted (attempts 0, no time set) are due once as old as a try's lease.
function due(now: Date, only: string[] | undefined): Prisma.EmailWhereInput {
  return {
    ...(only ? { id: { in: only } } : {}),
    transport: "resend",
    status: { in: ["queued", "pending", "failed"] },
    attempts: { lt: MAX_EMAIL_ATTEMPTS },
    OR: [
      { nextAttemptAt: { lte: now } },
      { nextAttemptAt: null, attempts: 0, createdAt: { lte: new Date(now.getTime() - EMAIL_TRY_LEASE_MS) } },
    ],
  };
}

// The next due e-mail, its try counted and its row leased (`pending`, due again only if this try
// is cut off), in one statement.
async function claimNext(at: Date, only: string[] | undefined): Promise<Email | null> {
  const lease = new Date(at.getTime() + EMAIL_TRY_LEASE_MS);
  const stale = new Date(at.getTime() - EMAIL_TRY_LEASE_MS);
  const ids = only ?? null;
  const rows = await db.$queryRaw<{ id: string }[]>`
    UPDATE emails SET attempts = attempts + 1, status = 'pending', next_attempt_at = ${lease}, last_attempt_at = ${at}
    WHERE id = (
      SELECT id FROM emails
      WHERE transport = 'resend' AND status IN ('queued', 'pending', 'failed') AND attempts < ${MAX_EMAIL_ATTEMPTS}
        AND (next_attempt_at <= ${at} OR (next_attempt_at IS NULL AND attempts = 0 AND created_at <= ${stale}))
        AND (${ids}::uuid[] IS NULL OR id = ANY(${ids}::uuid[]))
      ORDER BY next_attempt_at NULLS FIRST, created_at
      LIMIT 1
      FOR UPDATE SKIP LOCKED)
    RETURNING id::text AS id`;
  return rows[0] ? db.email.findUnique({ where: { id: rows[0].id } }) : null;
}

// A last try cut off mid-way (the process stopped) leaves its row `pending` with no tries left.
async function giveUpCutOffLastTries(now: Date, only: string[] | undefined): Promise<number> {
  const { count } = await db.email.updateMany({
    where: {
      ...(only ? { id: { in: only } } : {}),
      transport: "resend",
      status: "pending",
      attempts: { gte: MAX_EMAIL_ATTEMPTS },
      nextAttemptAt: { lte: now },
    },
    data: {
      status: "failed",
      error: `gave up after ${MAX_EMAIL_ATTEMPTS} tries: the last one was cut off before Resend answered`,
      nextAttemptAt: null,
    },
  });
  return count;
}
