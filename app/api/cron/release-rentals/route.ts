// GET|POST /api/cron/release-rentals — every minute (vercel.json): release ended rentals' escrow
// to their owners and complete them; answers with the run's summary.
import { releaseEndedRentals } from "@/lib/chain/release-ended-rentals";
import { authenticateCron } from "@/lib/http/authenticate-cron";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";
import { route } from "@/lib/http/routes/route";

export const maxDuration = 300;

export const GET = route({ auth: authenticateCron }, async () => Response.json(await releaseEndedRentals()));
export const POST = GET;

export const PUT = methodNotAllowed("GET, POST");
export const PATCH = PUT;
export const DELETE = PUT;
