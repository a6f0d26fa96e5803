// GET|POST /api/cron/sync-escrow — every minute (vercel.json): read the escrow's events into the
// database (payments whose confirm never came, disputes, resolutions, cancellations, releases).
import { syncEscrowEvents } from "@/lib/chain/sync-escrow-events";
import { authenticateCron } from "@/lib/http/authenticate-cron";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";
import { route } from "@/lib/http/routes/route";

export const maxDuration = 300;

export const GET = route({ auth: authenticateCron }, async () => Response.json(await syncEscrowEvents()));
export const POST = GET;

export const PUT = methodNotAllowed("GET, POST");
export const PATCH = PUT;
export const DELETE = PUT;
