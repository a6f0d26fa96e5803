// GET|POST /api/cron/health-checks — the 15-minute webhook health sweep (vercel.json). Vercel Cron
// calls GET; answers with the run's summary once every claimed agent has been checked.
import { runHealthChecks } from "@/lib/agents/run-health-checks";
import { cronRoute } from "@/lib/http/routes/cron-route";

// Vercel's longest function time; the run stops claiming agents well before it (budgetMs).
export const maxDuration = 300;

export const { GET, POST, PUT, PATCH, DELETE } = cronRoute(runHealthChecks);
