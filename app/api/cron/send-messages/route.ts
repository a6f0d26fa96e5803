// GET|POST /api/cron/send-messages — every minute (vercel.json): the one sender. Queued e-mails go
// to Resend at EMAIL_SEND_RATE_PER_SECOND across all servers, queued chat notices to their
// platforms, failed ones again once due; answers with the run's summary.
import { cronRoute } from "@/lib/http/routes/cron-route";
import { sendQueuedMessages } from "@/lib/notifications/send-queued-messages";

// Vercel's longest function time; the run stops taking new sends well before it (250 s), and
// runs that overlap while a backlog lasts share the rate.
export const maxDuration = 300;

export const { GET, POST, PUT, PATCH, DELETE } = cronRoute(sendQueuedMessages);
