// GET|POST /api/cron/sync-escrow — every minute (vercel.json): read the escrow's events into the
// database (payments whose confirm never came, disputes, resolutions, cancellations, releases).
import { syncEscrowEvents } from "@/lib/chain/sync-escrow-events";
import { cronRoute } from "@/lib/http/routes/cron-route";

export const maxDuration = 300;

export const { GET, POST, PUT, PATCH, DELETE } = cronRoute(syncEscrowEvents);
