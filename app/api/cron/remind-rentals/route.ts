// GET|POST /api/cron/remind-rentals — every minute (vercel.json): renters of rentals ending soon
// (10 minutes before an hour's end, 1 hour before a day's, 1 day before a month's) are told once
// per end, by e-mail and on their bound chat, with the link to extend. Answers with the run's summary.
import { cronRoute } from "@/lib/http/routes/cron-route";
import { remindEndingRentals } from "@/lib/rentals/remind-ending-rentals";

export const { GET, POST, PUT, PATCH, DELETE } = cronRoute(() => remindEndingRentals());
