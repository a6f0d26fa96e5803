// GET|POST /api/cron/retry-emails — the sender's former path, kept for schedulers that still call
// it: the same run as /api/cron/send-messages (queued and failed e-mails and chat notices), which
// is what vercel.json schedules now. Answers with the run's summary.
import { cronRoute } from "@/lib/http/routes/cron-route";
import { sendQueuedMessages } from "@/lib/notifications/send-queued-messages";

// Vercel's longest function time; the run stops taking new sends well before it.
export const maxDuration = 300;

export const { GET, POST, PUT, PATCH, DELETE } = cronRoute(sendQueuedMessages);
