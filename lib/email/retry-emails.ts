import "server-only";
import { db } from "@/lib/db";
import { deliverEmail, EMAIL_TRY_LEASE_MS, MAX_EMAIL_ATTEMPTS, RESEND_TIMEOUT_MS } from "@/lib/email/deliver-email";
import { type EmailTransport, emailTransportFromEnv } from "@/lib/email/email-transport";

export type EmailRetrySummary = {
  retried: number; // tries made by this run
  sent: number; // of which Resend took
  failed: number; // of which failed again, due once more later
  gaveUp: number; // e-mails failed for good in this run (their last try failed, or was cut off)
  remaining: number; // e-mails still due when the run stopped for its time budget
};

export type RetryOptions = { now?: Date; transport?: EmailTransport };

// E-mails claimed at once; a batch is claimed only if it surely ends (every try at its full
// timeout) inside the first 250 of Vercel's 300 seconds.
const BATCH = 10;
const BUDGET_MS = 250_000;

/**
 * The e-mail retry cron (every 5 minutes): e-mails Resend did not take — failed, or left `pending`
 * by a process that stopped mid-try — are tried again once due, under the same idempotency key, up
 * to MAX_EMAIL_ATTEMPTS tries in all (lib/email/deliver-email.ts). Rows are claimed atomically
 * (FOR UPDATE SKIP LOCKED; the claim counts the try and leases the row), so runs at once never
 * send the same e-mail, and a `sent` row is never touched.
 */
export async function retryEmails(options: RetryOptions = {}): Promise<EmailRetrySummary> {
  const now = options.now ?? new Date();
  const transport = options.transport ?? emailTransportFromEnv();
  const summary: EmailRetrySummary = { retried: 0, sent: 0, failed: 0, gaveUp: 0, remaining: 0 };
  // Without Resend there is nothing to send with: the rows wait for RESEND_API_KEY.
  if (transport.kind !== "resend") return summary;

  summary.gaveUp += await giveUpCutOffLastTries(now);
  const started = Date.now();
  while (Date.now() - started + BATCH * RESEND_TIMEOUT_MS <= BUDGET_MS) {
    const claimed = await claimDue(now);
    if (claimed.length === 0) return summary;
    for (const email of await db.email.findMany({ where: { id: { in: claimed } }, orderBy: { createdAt: "asc" } })) {
      const result = await deliverEmail(email, transport, now);
      summary.retried++;
      if (result.status === "sent") summary.sent++;
      else if (result.nextAttemptAt === null) summary.gaveUp++;
      else summary.failed++;
    }
  }
  summary.remaining = await db.email.count({ where: due(now) });
  if (summary.remaining > 0)
    console.warn(`[email] retry run stopped for its time budget; ${summary.remaining} e-mail(s) left for the next run`);
  return summary;
}

// Due: failed or cut off, tries left, and its time come. Rows written before tries were counted
// (attempts 0, no time set) are due once as old as a try's lease.
function due(now: Date) {
  return {
    transport: "resend",
    status: { in: ["pending", "failed"] },
    attempts: { lt: MAX_EMAIL_ATTEMPTS },
    OR: [
      { nextAttemptAt: { lte: now } },
      { nextAttemptAt: null, attempts: 0, createdAt: { lte: new Date(now.getTime() - EMAIL_TRY_LEASE_MS) } },
    ],
  };
}

// Counts the try and leases the row (`pending`, due again only if this try is cut off).
async function claimDue(now: Date): Promise<string[]> {
  const lease = new Date(now.getTime() + EMAIL_TRY_LEASE_MS);
  const stale = new Date(now.getTime() - EMAIL_TRY_LEASE_MS);
  const rows = await db.$queryRaw<{ id: string }[]>`
    UPDATE emails SET attempts = attempts + 1, status = 'pending', next_attempt_at = ${lease}
    WHERE id IN (
      SELECT id FROM emails
      WHERE transport = 'resend' AND status IN ('pending', 'failed') AND attempts < ${MAX_EMAIL_ATTEMPTS}
        AND (next_attempt_at <= ${now} OR (next_attempt_at IS NULL AND attempts = 0 AND created_at <= ${stale}))
      ORDER BY next_attempt_at NULLS FIRST, created_at
      LIMIT ${BATCH}
      FOR UPDATE SKIP LOCKED)
    RETURNING id::text AS id`;
  return rows.map((r) => r.id);
}

// A last try cut off mid-way (the process stopped) leaves its row `pending` with no tries left.
async function giveUpCutOffLastTries(now: Date): Promise<number> {
  const { count } = await db.email.updateMany({
    where: {
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
