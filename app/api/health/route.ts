// GET /api/health — liveness only (no database call): load balancers, uptime checks, and the
// benchmark's framework floor.
import { methodNotAllowed } from "@/lib/http/method-not-allowed";

export function GET(): Response {
  return Response.json({ ok: true });
}

export const POST = methodNotAllowed("GET");
export const PUT = POST;
export const PATCH = POST;
export const DELETE = POST;
