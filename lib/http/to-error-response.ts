import { ApiError } from "@/lib/http/api-error";
import { isDatabaseUnavailable } from "@/lib/is-database-unavailable";

// A database that is down or restarting is not a bug: the same request may work in a moment.
export const DATABASE_UNAVAILABLE_MESSAGE = "The service is temporarily unavailable; try again shortly.";
const DATABASE_RETRY_AFTER_SECONDS = "5";

// Maps every error to the spec's `{ "error": "<message>" }`. Unknown errors become a generic
// 500, or a 503 with Retry-After when the database cannot be reached; their details go to the
// log only, never to the client.
export function toErrorResponse(error: unknown): Response {
  if (error instanceof ApiError) {
    return Response.json({ error: error.message }, { status: error.status, headers: error.headers });
  }
  if (isDatabaseUnavailable(error)) {
    console.error("Database unavailable:", error instanceof Error ? error.message : error);
    return Response.json(
      { error: DATABASE_UNAVAILABLE_MESSAGE },
      { status: 503, headers: { "Retry-After": DATABASE_RETRY_AFTER_SECONDS } },
    );
  }
  console.error("Unhandled error", error);
  return Response.json({ error: "Internal error; please try again later." }, { status: 500 });
}
