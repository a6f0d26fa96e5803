import "server-only";
import { a2aErrorResponse } from "@/lib/a2a/serve-a2a";
import { applyCors, preflight } from "@/lib/http/cors";
import { renterBucket } from "@/lib/http/routes/renter-route";
import { type RouteContext, route } from "@/lib/http/routes/route";

const METHODS = "POST, OPTIONS";
const CARD_METHODS = "GET, OPTIONS";
/** Cards are the same for everyone: the edge keeps them for a minute (both a card and a 404). */
export const CARD_CACHE_CONTROL = "public, max-age=60, s-maxage=60";

/**
 * An A2A JSON-RPC endpoint (/a2a, /a2a/{agentId}): the renter API's 60/min bucket per client IP
 * and its open CORS; every error, the 429 too, as a JSON-RPC error object (lib/a2a/serve-a2a.ts).
 * The handler authenticates where its endpoint needs it. `P` is the route's dynamic segments.
 */
export function a2aRoute<P extends Record<string, string>>(handler: (ctx: RouteContext<null> & { params: P }) => Promise<Response>) {
  return (req: Request, segment: { params: Promise<P> }): Promise<Response> =>
    route({ cors: METHODS, limit: renterBucket, auth: async () => null, errors: a2aErrorResponse }, async (ctx) =>
      handler({ ...ctx, params: await segment.params }),
    )(req);
}

export const a2aPreflight = preflight(METHODS);

/** An agent card (GET): JSON with CORS open to every origin and the edge's minute of cache. */
export function agentCardResponse(card: unknown): Response {
  const res = Response.json(card, { headers: { "Cache-Control": CARD_CACHE_CONTROL } });
  applyCors(res.headers, CARD_METHODS);
  return res;
}

export function agentCardNotFound(message: string): Response {
  const res = Response.json({ error: message }, { status: 404, headers: { "Cache-Control": CARD_CACHE_CONTROL } });
  applyCors(res.headers, CARD_METHODS);
  return res;
}

export const agentCardPreflight = preflight(CARD_METHODS);

// Anything but POST on an endpoint: a JSON-RPC error too (GET there is not the card).
export function a2aMethodNotAllowed(): Response {
  const res = Response.json(
    {
      jsonrpc: "2.0",
      id: null,
      error: { code: -32600, message: "Use POST with a JSON-RPC 2.0 request; the agent card is at .well-known/agent-card.json." },
    },
    { status: 405, headers: { Allow: METHODS } },
  );
  applyCors(res.headers, METHODS);
  return res;
}
