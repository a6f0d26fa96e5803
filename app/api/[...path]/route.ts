// Any /api path no other route serves, whatever the method: a JSON 404 instead of the
// framework's HTML page (/api/v1/* and /api/public/* have their own, in their surface's words).
import { apiNotFound } from "@/lib/http/api-not-found";

export const GET = apiNotFound;
export const HEAD = apiNotFound;
export const POST = apiNotFound;
export const PUT = apiNotFound;
export const PATCH = apiNotFound;
export const DELETE = apiNotFound;
export const OPTIONS = apiNotFound;
