// GET /api/health — liveness only (no database call): load balancers, uptime checks, and the
// benchmark's framework floor.
export function GET(): Response {
  return Response.json({ ok: true });
}
