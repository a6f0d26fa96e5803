// GET|POST /api/cron/health-checks — the 15-minute webhook health sweep (vercel.json). Vercel Cron
// calls GET; answers with the run's summary once every claimed agent has been checked.
import { runHealthChecks } from "@/lib/agents/run-health-checks";
import { authenticateCron } from "@/lib/http/authenticate-cron";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";
import { route } from "@/lib/http/routes/route";

// Vercel's longest function time; the run stops claiming agents well before it (budgetMs).
export const maxDuration = 300;

export const GET = route({ auth: authenticateCron }, async () => Response.json(await runHealthChecks()));
export const POST = GET;

export const PUT = methodNotAllowed("GET, POST");
export const PATCH = PUT;
export const DELETE = PUT;
