// GET|POST /api/cron/retry-emails — every 5 minutes (vercel.json): e-mails Resend did not take
// (failed, or cut off mid-try) are tried again under the same idempotency key, a bounded number of
// times; answers with the run's summary.
import { retryEmails } from "@/lib/email/retry-emails";
import { cronRoute } from "@/lib/http/routes/cron-route";

// Vercel's longest function time; the run stops claiming e-mails well before it.
export const maxDuration = 300;

export const { GET, POST, PUT, PATCH, DELETE } = cronRoute(retryEmails);
