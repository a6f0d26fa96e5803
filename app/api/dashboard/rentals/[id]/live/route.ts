// GET /api/dashboard/rentals/{id}/live — what of the signed-in renter's rental its page would now
// show differently (status, dispute decision, messages, chat); the page polls it and refreshes
// itself when it changes. 404 for a rental that is not the account's, as the page.
import { ApiError } from "@/lib/http/api-error";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";
import { sessionRoute } from "@/lib/http/routes/session-route";
import { NO_STORE } from "@/lib/http/routes/sign-in-route";
import { loadRentalLiveState } from "@/lib/rentals/load-rental-live-state";

type Segment = { params: Promise<{ id: string }> };

export function GET(req: Request, segment: Segment): Promise<Response> {
  return sessionRoute(async ({ auth }) => {
    const state = await loadRentalLiveState(auth.account, (await segment.params).id);
    if (!state) throw new ApiError(404, "This rental is not in your account.");
    return Response.json(state, { headers: NO_STORE });
  })(req);
}

export const POST = methodNotAllowed("GET");
export const PUT = POST;
export const PATCH = POST;
export const DELETE = POST;
