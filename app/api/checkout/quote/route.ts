// POST /api/checkout/quote — check that the agent answers (409 if not), price a rental and sign the EIP-712 quote the escrow accepts.

import { methodNotAllowed } from "@/lib/http/method-not-allowed";
import { parseJsonBody } from "@/lib/http/parse-json-body";
import { checkoutRoute } from "@/lib/http/routes/checkout-route";
import { microToUsdc } from "@/lib/money/usdc";
import { quoteRental } from "@/lib/rentals/quote-rental";
import { quoteRequestSchema } from "@/lib/schemas/checkout";

export const POST = checkoutRoute(async ({ req }) => {
  const body = await parseJsonBody(req, quoteRequestSchema, 4 * 1024);
  const { quote, ...rest } = await quoteRental({ ...body, renter: body.renter as `0x${string}` });
  const total = quote.price + quote.fee;
  return Response.json(
    {
      ...rest,
      quote: {
        ...quote,
        price: String(quote.price),
        fee: String(quote.fee),
        duration: String(quote.duration),
        deadline: String(quote.deadline),
      },
      price: microToUsdc(quote.price),
      fee: microToUsdc(quote.fee),
      total: microToUsdc(total),
      totalMicro: String(total),
    },
    { status: 201 },
  );
});

export const GET = methodNotAllowed("POST");
export const PUT = GET;
export const PATCH = GET;
export const DELETE = GET;
