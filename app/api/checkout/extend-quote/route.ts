// POST /api/checkout/extend-quote — price an extension of a running rental and sign the escrow's
// Extension (docs/extend.md). The rental is named by its code as on /v1 (X-API-Key or Bearer), with
// the same guessing budgets; the listing's webhook is checked live first, as before a checkout.
import { methodNotAllowed } from "@/lib/http/method-not-allowed";
import { parseJsonBody } from "@/lib/http/parse-json-body";
import { checkoutRoute } from "@/lib/http/routes/checkout-route";
import { microToUsdc } from "@/lib/money/usdc";
import { authenticateRental } from "@/lib/rentals/authenticate-rental";
import { quoteExtension } from "@/lib/rentals/extend/quote-extension";
import { extendQuoteRequestSchema } from "@/lib/schemas/checkout";

export const POST = checkoutRoute(async ({ req }) => {
  const rental = await authenticateRental(req, 404);
  const body = await parseJsonBody(req, extendQuoteRequestSchema, 1024);
  const { extension, endsAt, ...rest } = await quoteExtension({ rentalId: rental.id, ...body });
  const total = extension.addedPrice + extension.fee;
  return Response.json(
    {
      ...rest,
      extension: {
        ...extension,
        addedPrice: String(extension.addedPrice),
        fee: String(extension.fee),
        addedSeconds: String(extension.addedSeconds),
        endsAt: String(extension.endsAt),
        deadline: String(extension.deadline),
      },
      ends_at: endsAt.toISOString(),
      price: microToUsdc(extension.addedPrice),
      fee: microToUsdc(extension.fee),
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
