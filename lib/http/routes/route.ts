import { applyCors } from "@/lib/http/cors";
import { rateLimitError, rateLimitHeaders } from "@/lib/http/rate-limit-error";
import { toErrorResponse } from "@/lib/http/to-error-response";
import type { RateDecision, RateLimiter } from "@/lib/ratelimit/rate-limiter";

type RouteOptions<A> = {
  // Methods to announce in CORS headers; set for surfaces browsers call cross-origin.
  cors?: string;
  // Which bucket this request spends from; checked before authentication so that failed
  // attempts are limited too.
  limit?: (req: Request) => { limiter: RateLimiter; key: string };
  auth: (req: Request) => Promise<A>;
  // How errors are answered: the spec's `{ "error": … }` unless a surface speaks another dialect
  // (the OpenAI-compatible routes answer OpenAI's error shape, same statuses and headers).
  errors?: (error: unknown) => Response | Promise<Response>;
};

export type RouteContext<A> = { req: Request; auth: A };

// The one wrapper every API route goes through: rate limit → authenticate → handler, with
// every thrown error mapped to `{ "error": … }` and CORS applied to errors and 429s alike.
export function route<A>(options: RouteOptions<A>, handler: (ctx: RouteContext<A>) => Promise<Response>) {
  return async (req: Request): Promise<Response> => {
    let decision: RateDecision | undefined;
    let res: Response;
    try {
      if (options.limit) {
        const { limiter, key } = options.limit(req);
        decision = await limiter.limit(key);
        if (!decision.allowed) throw rateLimitError(decision);
      }
      res = await handler({ req, auth: await options.auth(req) });
    } catch (error) {
      res = await (options.errors ?? toErrorResponse)(error);
    }
    // A 429 from a limit checked later (failed code lookups, failed key attempts) carries that
    // limit's headers; they are not overwritten with the route's own.
    if (decision?.allowed && !res.headers.has("RateLimit-Limit")) {
      for (const [name, value] of Object.entries(rateLimitHeaders(decision))) res.headers.set(name, value);
    }
    if (options.cors) applyCors(res.headers, options.cors);
    return res;
  };
}
