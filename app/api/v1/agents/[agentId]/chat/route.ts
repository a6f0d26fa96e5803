// POST /api/v1/agents/{agentId}/chat — one answer sold per message over x402 (no rental): 402 with
// the payment's requirements, then the paid retry gets the owner's answer (docs/pay-per-message.md).
import { decodePaymentSignatureHeader } from "@x402/core/http";
import type { PaymentPayload } from "@x402/core/types";
import { appUrl } from "@/lib/env";
import { ApiError } from "@/lib/http/api-error";
import { parseJsonBody } from "@/lib/http/parse-json-body";
import { paidAnswerRoute, renterMethodNotAllowed, renterPreflight } from "@/lib/http/routes/renter-route";
import { chatRequestSchema } from "@/lib/schemas/renter-api";
import { answerResponse } from "@/lib/x402/answer-response";
import { sellAnswer } from "@/lib/x402/sell-answer";

const MAX_BODY_BYTES = 256 * 1024;

export const POST = paidAnswerRoute<{ agentId: string }>(async ({ req, params }) => {
  const { message } = await parseJsonBody(req, chatRequestSchema, MAX_BODY_BYTES);
  const path = `/api/v1/agents/${encodeURIComponent(params.agentId)}/chat`;
  const sale = await sellAnswer({
    agentId: params.agentId,
    message,
    payment: readPayment(req.headers.get("PAYMENT-SIGNATURE")),
    resource: { url: new URL(path, appUrl()).toString() },
  });
  return answerResponse(sale);
});

// The x402 v2 payment header (base64 JSON); one that does not decode is a client error in words.
function readPayment(header: string | null): PaymentPayload | null {
  if (!header) return null;
  try {
    return decodePaymentSignatureHeader(header);
  } catch {
    throw new ApiError(400, "The PAYMENT-SIGNATURE header is not an x402 payment: base64 of its JSON payload.");
  }
}

export const OPTIONS = renterPreflight;
export const GET = renterMethodNotAllowed("POST");
export const PUT = GET;
export const PATCH = GET;
export const DELETE = GET;
