import { authenticateCron } from "@/lib/http/authenticate-cron";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";
import { route } from "@/lib/http/routes/route";

/**
 * A scheduled job's route (vercel.json): GET (what Vercel Cron calls) and POST run the job behind
 * the CRON_SECRET check and answer with its summary; the other methods get the API's JSON 405.
 */
export function cronRoute(run: () => Promise<unknown>) {
  const GET = route({ auth: authenticateCron }, async () => Response.json(await run()));
  const refuse = methodNotAllowed("GET, POST");
  return { GET, POST: GET, PUT: refuse, PATCH: refuse, DELETE: refuse };
}
