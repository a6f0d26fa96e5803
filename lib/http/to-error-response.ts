import { ApiError } from "@/lib/http/api-error";

// Maps every error to the spec's `{ "error": "<message>" }`. Unknown errors become a generic
// 500; their details go to the log only, never to the client.
export function toErrorResponse(error: unknown): Response {
  if (error instanceof ApiError) {
    return Response.json({ error: error.message }, { status: error.status, headers: error.headers });
  }
  console.error("Unhandled error", error);
  return Response.json({ error: "Internal error; please try again later." }, { status: 500 });
}
