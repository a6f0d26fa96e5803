// GET /api/v1/openapi.json — machine-readable description of the renter surface (OpenAPI 3.1).
import { applyCors } from "@/lib/http/cors";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";
import { renterOpenApi } from "@/lib/openapi/renter-openapi";

export function GET(req: Request): Response {
  // The server URL follows the host that was asked, so it is right behind /api and on an API host.
  const url = new URL(req.url);
  const base = url.pathname.startsWith("/api/") ? `${url.origin}/api` : url.origin;
  const res = Response.json(renterOpenApi(base));
  applyCors(res.headers, "GET, OPTIONS");
  return res;
}

export const POST = methodNotAllowed("GET");
export const PUT = POST;
export const PATCH = POST;
export const DELETE = POST;
