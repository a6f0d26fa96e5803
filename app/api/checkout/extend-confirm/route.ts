// POST /api/checkout/extend-confirm — move the end of the rental an extendRental transaction paid
// for (once, whatever the retries) and tell the owner's webhook; returns the new end only.
import { methodNotAllowed } from "@/lib/http/method-not-allowed";
import { parseJsonBody } from "@/lib/http/parse-json-body";
import { checkoutRoute } from "@/lib/http/routes/checkout-route";
import { confirmRentalExtension } from "@/lib/rentals/extend/confirm-rental-extension";
import { extendConfirmRequestSchema } from "@/lib/schemas/checkout";

export const POST = checkoutRoute(async ({ req }) => {
  const { txHash } = await parseJsonBody(req, extendConfirmRequestSchema, 1024);
  const { notified, ...confirmed } = await confirmRentalExtension(txHash);
  // The owner's rental.extended call (already under way) may finish after the answer; its failure
  // undoes nothing and is logged by sendRentalExtended.
  void notified?.catch(() => {});
  return Response.json(confirmed);
});

export const GET = methodNotAllowed("POST");
export const PUT = GET;
export const PATCH = GET;
export const DELETE = GET;
