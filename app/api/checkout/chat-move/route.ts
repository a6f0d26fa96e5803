// POST /api/checkout/chat-move — "Move to another chat account" on the checkout page: a one-time
// move command for the rental's bot, only for the browser that paid (the quote's claim secret).
import { createChatMove } from "@/lib/channels/create-chat-move";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";
import { parseJsonBody } from "@/lib/http/parse-json-body";
import { checkoutRoute } from "@/lib/http/routes/checkout-route";
import { chatMoveRequestSchema } from "@/lib/schemas/checkout";

export const POST = checkoutRoute(async ({ req }) => {
  const { rentalId, claimSecret } = await parseJsonBody(req, chatMoveRequestSchema, 1024);
  const move = await createChatMove(rentalId, { claimSecret });
  return Response.json({ platform: move.platform, token: move.token, expiresAt: move.expiresAt.toISOString() }, { status: 201 });
});

export const GET = methodNotAllowed("POST");
export const PUT = GET;
export const PATCH = GET;
export const DELETE = GET;
