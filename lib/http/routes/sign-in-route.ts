import "server-only";
import { clientIp } from "@/lib/http/client-ip";
import { type RouteContext, route } from "@/lib/http/routes/route";
import { limiters } from "@/lib/ratelimit/policies";

// Answers about sessions must never be cached by a browser or a proxy.
export const NO_STORE = { "Cache-Control": "no-store" } as const;

// The sign-in routes (nonce, SIWE, e-mail link and its callback): no credential yet, 10/min per
// client IP from one shared bucket, spent before any work so failed attempts count too.
export function signInRoute(handler: (ctx: RouteContext<null>) => Promise<Response>) {
  return route({ limit: (req) => ({ limiter: limiters().auth, key: clientIp(req.headers) }), auth: async () => null }, handler);
}
