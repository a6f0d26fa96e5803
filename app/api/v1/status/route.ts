// GET /api/v1/status — the rental's current state; never calls the webhook, cheap to poll.
import { renterMethodNotAllowed, renterPreflight, renterRoute } from "@/lib/http/routes/renter-route";
import { toStatusResponse } from "@/lib/rentals/to-status-response";
import { readTrialMessagesLeft } from "@/lib/trials/spend-trial-message";

// A trial's messages left are read afresh (the rental lookup may be a second old).
export const GET = renterRoute(404, async ({ auth: rental }) =>
  Response.json(toStatusResponse(rental.trial ? { ...rental, trialMessagesLeft: await readTrialMessagesLeft(rental.id) } : rental)),
);

export const OPTIONS = renterPreflight;
export const POST = renterMethodNotAllowed("GET");
export const PUT = POST;
export const PATCH = POST;
export const DELETE = POST;
