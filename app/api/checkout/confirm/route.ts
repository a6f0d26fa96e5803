// POST /api/checkout/confirm — activate the rental a createRental transaction paid for; its code
// goes only to the holder of the quote's claim secret or a session of the paying wallet.
import { currentAccount } from "@/lib/auth/current-account";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";
import { parseJsonBody } from "@/lib/http/parse-json-body";
import { checkoutRoute } from "@/lib/http/routes/checkout-route";
import { confirmRentalPayment } from "@/lib/rentals/confirm-rental-payment";
import { confirmRequestSchema } from "@/lib/schemas/checkout";

export const POST = checkoutRoute(async ({ req }) => {
  const { txHash, claimSecret } = await parseJsonBody(req, confirmRequestSchema, 1024);
  const walletAddress = claimSecret ? null : (await currentAccount(req))?.walletAddress;
  return Response.json(await confirmRentalPayment(txHash, { claimSecret, walletAddress }));
});

export const GET = methodNotAllowed("POST");
export const PUT = GET;
export const PATCH = GET;
export const DELETE = GET;
