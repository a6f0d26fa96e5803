import "server-only";
import { toErrorResponse } from "@/lib/http/to-error-response";

// OpenAI's error types for the statuses the renter API answers (the statuses stay /v1/chat's).
const KIND: Record<number, { type: string; code: string }> = {
  400: { type: "invalid_request_error", code: "invalid_request" },
  401: { type: "authentication_error", code: "invalid_api_key" },
  // A free trial that is over (docs/trials.md), as OpenAI words an account out of credit.
  402: { type: "insufficient_quota", code: "trial_over" },
  403: { type: "permission_error", code: "rental_not_active" },
  404: { type: "not_found_error", code: "not_found" },
  413: { type: "invalid_request_error", code: "request_too_large" },
  429: { type: "rate_limit_error", code: "rate_limit_exceeded" },
  502: { type: "api_error", code: "agent_error" },
  503: { type: "api_error", code: "agent_unavailable" },
};

/** The body of an error in OpenAI's shape: `{"error": {"message", "type", "param", "code"}}`. */
export function openAiErrorBody(status: number, message: string) {
  const kind = KIND[status] ?? { type: "api_error", code: "internal_error" };
  return { error: { message, type: kind.type, param: null, code: kind.code } };
}

/** Any error as the renter API answers it (status, words, Retry-After…), in OpenAI's shape. */
export async function toOpenAiErrorResponse(error: unknown): Promise<Response> {
  const plain = toErrorResponse(error);
  const { error: message } = (await plain.json()) as { error: string };
  const headers = new Headers(plain.headers);
  headers.delete("content-length");
  return Response.json(openAiErrorBody(plain.status, message), { status: plain.status, headers });
}
