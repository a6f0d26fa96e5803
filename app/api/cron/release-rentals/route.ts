// GET|POST /api/cron/release-rentals — every minute (vercel.json): release ended rentals' escrow
// to their owners and complete them; answers with the run's summary.
import { releaseEndedRentals } from "@/lib/chain/release-ended-rentals";
import { cronRoute } from "@/lib/http/routes/cron-route";

export const maxDuration = 300;

export const { GET, POST, PUT, PATCH, DELETE } = cronRoute(releaseEndedRentals);
