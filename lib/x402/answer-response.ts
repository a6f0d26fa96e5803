import "server-only";
import { encodePaymentRequiredHeader, encodePaymentResponseHeader } from "@x402/core/http";
import type { AnswerSale } from "@/lib/x402/sell-answer";

/**
 * An answer sale as HTTP (x402 v2 transport): 402 with `PAYMENT-REQUIRED` (base64 JSON) and the
 * same object as the body; 200 with the answer and `PAYMENT-RESPONSE` (the settlement); a
 * settlement that failed after the owner answered is a 402 with both headers and no answer.
 */
export function answerResponse(sale: AnswerSale): Response {
  if (sale.kind === "answered") {
    return Response.json(sale.body, { headers: { "PAYMENT-RESPONSE": encodePaymentResponseHeader(sale.settlement) } });
  }
  const headers: Record<string, string> = {
    "PAYMENT-REQUIRED": encodePaymentRequiredHeader(sale.paymentRequired),
    "Cache-Control": "no-store",
  };
  if (sale.kind === "settlement-failed") headers["PAYMENT-RESPONSE"] = encodePaymentResponseHeader(sale.settlement);
  return Response.json(sale.paymentRequired, { status: 402, headers });
}
