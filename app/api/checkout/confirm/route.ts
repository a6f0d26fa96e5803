// POST /api/checkout/confirm — activate the rental a createRental transaction paid for.
import { checkoutRoute } from "@/lib/http/checkout-route";
import { parseJsonBody } from "@/lib/http/parse-json-body";
import { confirmRentalPayment } from "@/lib/rentals/confirm-rental-payment";
import { confirmRequestSchema } from "@/lib/schemas/checkout";

export const POST = checkoutRoute(async ({ req }) => {
  const { txHash } = await parseJsonBody(req, confirmRequestSchema, 1024);
  return Response.json(await confirmRentalPayment(txHash));
});
