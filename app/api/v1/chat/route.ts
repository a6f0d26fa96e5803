// POST /api/v1/chat — proxies one message to the rented agent's webhook and returns its reply.
import { parseJsonBody } from "@/lib/http/parse-json-body";
import { renterMethodNotAllowed, renterPreflight, renterRoute } from "@/lib/http/routes/renter-route";
import { chatWithRental } from "@/lib/rentals/chat-with-rental";
import { chatRequestSchema } from "@/lib/schemas/renter-api";

// 10,000 characters of up to 4 UTF-8 bytes each, JSON-escaped, plus the envelope.
const MAX_BODY_BYTES = 256 * 1024;

export const POST = renterRoute(401, async ({ req, auth: rental }) => {
  const { message } = await parseJsonBody(req, chatRequestSchema, MAX_BODY_BYTES);
  return Response.json(await chatWithRental(rental, message));
});

export const OPTIONS = renterPreflight;
export const GET = renterMethodNotAllowed("POST");
export const PUT = GET;
export const PATCH = GET;
export const DELETE = GET;
