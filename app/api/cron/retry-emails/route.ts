// GET|POST /api/cron/retry-emails — every 5 minutes (vercel.json): e-mails Resend did not take
// (failed, or cut off mid-try) are tried again under the same idempotency key, a bounded number of
// times; answers with the run's summary.
import { retryEmails } from "@/lib/email/retry-emails";
import { authenticateCron } from "@/lib/http/authenticate-cron";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";
import { route } from "@/lib/http/routes/route";

// Vercel's longest function time; the run stops claiming e-mails well before it.
export const maxDuration = 300;

export const GET = route({ auth: authenticateCron }, async () => Response.json(await retryEmails()));
export const POST = GET;

export const PUT = methodNotAllowed("GET, POST");
export const PATCH = PUT;
export const DELETE = PUT;
