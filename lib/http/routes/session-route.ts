import "server-only";
import { type CurrentSession, requireSession } from "@/lib/auth/current-account";
import { type RouteContext, route } from "@/lib/http/routes/route";

// Routes the web UI calls with the session cookie: `ctx.auth.account` is the signed-in account;
// anyone else gets 401 `{ "error": … }` (and a stale cookie is cleared).
export function sessionRoute(handler: (ctx: RouteContext<CurrentSession>) => Promise<Response>) {
  return route({ auth: requireSession }, handler);
}
