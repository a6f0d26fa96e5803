import "server-only";
import { clientIp } from "@/lib/http/client-ip";
import { applyCors, preflight } from "@/lib/http/cors";
import { type RouteContext, route } from "@/lib/http/routes/route";
import { limiters } from "@/lib/ratelimit/policies";
import { authenticateRental } from "@/lib/rentals/authenticate-rental";
import type { RentalWithAgent } from "@/lib/rentals/find-rental-by-code";

const METHODS = "GET, POST, OPTIONS";

// The /v1 surface's one 60/min bucket per client IP, shared by all its endpoints: each request
// takes a token from it, and so does each MCP chat call after a request's first (a JSON-RPC batch).
export function renterBucket(req: Request) {
  return { limiter: limiters().renterApi, key: clientIp(req.headers) };
}

// The /v1 surface: the bucket above, the rental code as credential, CORS open to every origin.
export function renterRoute(
  unknownRental: 401 | 404,
  handler: (ctx: RouteContext<RentalWithAgent>) => Promise<Response>,
  options: { errors?: (error: unknown) => Response | Promise<Response> } = {},
) {
  return route(
    {
      cors: METHODS,
      limit: renterBucket,
      auth: (req) => authenticateRental(req, unknownRental),
      errors: options.errors,
    },
    handler,
  );
}

/**
 * An answer sold per message (/v1/agents/{agentId}/…, x402): the same bucket and CORS, no rental
 * code — the payment is the credential. `P` is the route's dynamic segments.
 */
export function paidAnswerRoute<P extends Record<string, string>>(handler: (ctx: RouteContext<null> & { params: P }) => Promise<Response>) {
  return (req: Request, segment: { params: Promise<P> }): Promise<Response> =>
    route({ cors: METHODS, limit: renterBucket, auth: async () => null }, async (ctx) => handler({ ...ctx, params: await segment.params }))(
      req,
    );
}

export const renterPreflight = preflight(METHODS);

// Methods a /v1 path does not serve still answer in the spec's error form, with CORS.
export function renterMethodNotAllowed(allowed: string) {
  return () => {
    const res = Response.json({ error: `Method not allowed; use ${allowed}.` }, { status: 405, headers: { Allow: `${allowed}, OPTIONS` } });
    applyCors(res.headers, METHODS);
    return res;
  };
}

export function renterNotFound(): Response {
  const res = Response.json(
    {
      error:
        "No such endpoint; the renter API has POST /v1/chat, GET /v1/status, GET /v1/availability, POST /v1/chat/completions, GET /v1/models and POST /v1/mcp, and answers sold per message at POST /v1/agents/{agentId}/chat and POST /v1/agents/{agentId}/mcp.",
    },
    { status: 404 },
  );
  applyCors(res.headers, METHODS);
  return res;
}
