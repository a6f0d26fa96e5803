// POST /a2a/{agentId} — a listing's A2A endpoint (JSON-RPC, protocol v1.0 and v0.3 method names):
// a message relayed through chatWithRental (channel "A2A") as a task, streamed or not; tasks read
// back by the rental that made them for 24 hours. The rental code as Bearer (docs/a2a.md).
import { listingAgentCard } from "@/lib/a2a/agent-cards";
import { findA2aListing } from "@/lib/a2a/find-a2a-listing";
import { PostgresTaskStore } from "@/lib/a2a/postgres-task-store";
import { RentalAgentExecutor } from "@/lib/a2a/rental-agent-executor";
import { serveA2a } from "@/lib/a2a/serve-a2a";
import { appUrl } from "@/lib/env";
import { ApiError } from "@/lib/http/api-error";
import { a2aMethodNotAllowed, a2aPreflight, a2aRoute } from "@/lib/http/routes/a2a-route";
import { assertRentalUsable } from "@/lib/rentals/assert-rental-usable";
import { authenticateRental } from "@/lib/rentals/authenticate-rental";

export const POST = a2aRoute<{ agentId: string }>(async ({ req, params }) => {
  const found = await findA2aListing(params.agentId);
  if (!found) throw new ApiError(404, "No agent has this id: it is unknown or was deleted.");
  // An offline listing has no card, but its running rentals were paid for: they still reach it
  // (as /v1/chat does), and the owner's webhook answers or the task fails.
  const rental = await authenticateRental(req, 401);
  if (rental.agentId !== found.listing.id) {
    throw new ApiError(403, "This rental code is for another agent: send it to that agent's A2A endpoint.");
  }
  return serveA2a(req, {
    card: listingAgentCard(found.listing, appUrl()),
    executor: new RentalAgentExecutor(rental),
    taskStore: new PostgresTaskStore(rental.id),
    beforeSend: () => assertRentalUsable(rental),
  });
});

export const OPTIONS = a2aPreflight;
export const GET = a2aMethodNotAllowed;
export const PUT = a2aMethodNotAllowed;
export const PATCH = a2aMethodNotAllowed;
export const DELETE = a2aMethodNotAllowed;
