import "server-only";
import { authenticateOwner, type OwnerAuth } from "@/lib/accounts/authenticate-owner";
import { hashApiKey } from "@/lib/crypto/api-key";
import { clientIp } from "@/lib/http/client-ip";
import { credentialFromHeaders } from "@/lib/http/credential-from-headers";
import { type RouteContext, route } from "@/lib/http/routes/route";
import { limiters } from "@/lib/ratelimit/policies";

// Listings are a few KiB at most; anything larger is a mistake or an attack.
export const OWNER_BODY_MAX_BYTES = 16 * 1024;

const OWNER_ROUTE = {
  // 30/min per key. The bucket is named by the key's hash (the plain key never reaches Redis);
  // requests without a key share a bucket per client IP. Attempts without a valid key also
  // spend from a per-IP budget of their own (authenticateOwner), so made-up keys, which would
  // each get a fresh bucket here, are limited too.
  limit: (req: Request) => {
    const key = credentialFromHeaders(req.headers);
    return { limiter: limiters().ownerApi, key: key ? hashApiKey(key) : `ip:${clientIp(req.headers)}` };
  },
  auth: authenticateOwner,
};

type Segment<P> = { params: Promise<P> };

// The /public surface: an owner API key as credential, no CORS. Owner keys belong on servers,
// never in a browser page, so browsers are not invited to call it cross-origin. `P` is the
// route's dynamic segments (Next.js passes them as a promise in the second argument).
export function ownerRoute<P extends Record<string, string> = Record<string, never>>(
  handler: (ctx: RouteContext<OwnerAuth> & { params: P }) => Promise<Response>,
) {
  return (req: Request, segment?: Segment<P>): Promise<Response> =>
    route(OWNER_ROUTE, async (ctx) => handler({ ...ctx, params: await (segment?.params ?? ({} as P)) }))(req);
}

// Methods a /public path does not serve still answer in the spec's error form.
export function ownerMethodNotAllowed(allowed: string) {
  return () => Response.json({ error: `Method not allowed; use ${allowed}.` }, { status: 405, headers: { Allow: allowed } });
}

export function ownerNotFound(): Response {
  return Response.json(
    {
      error: "No such endpoint; the owner API has /public/agents, /public/agents/{id}, /public/agents/{id}/connect and /public/stats.",
    },
    { status: 404 },
  );
}
