import "server-only";
import { clientIp } from "@/lib/http/client-ip";
import { type RouteContext, route } from "@/lib/http/routes/route";
import { limiters } from "@/lib/ratelimit/policies";

// Checkout needs no account: a quote is only redeemable by the wallet it names, a confirm only
// reads facts from the chain, and a chat move needs the quote's claim secret. All are limited per
// client IP.
export function checkoutRoute(handler: (ctx: RouteContext<null>) => Promise<Response>) {
  return route({ limit: (req) => ({ limiter: limiters().checkout, key: clientIp(req.headers) }), auth: async () => null }, handler);
}
