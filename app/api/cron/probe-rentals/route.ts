// GET|POST /api/cron/probe-rentals — every minute (vercel.json): one signed health_check per agent
// with a rental running now; each running rental records the minute as up or down
// (docs/availability.md). Answers with the run's summary.
import { probeRentals } from "@/lib/availability/probe-rentals";
import { cronRoute } from "@/lib/http/routes/cron-route";

// A probe waits 10 s at most; a round over 10,000 agents finishes well inside the minute.
export const maxDuration = 60;

export const { GET, POST, PUT, PATCH, DELETE } = cronRoute(() => probeRentals());
