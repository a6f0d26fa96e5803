// Every API route handler the fuzz calls, as Next.js would route to it: the methods it serves,
// the credentials and bodies to try, and the key pool of owner routes.
import fc from "fast-check";
import { API_ROUTES } from "./fuzz-api-routes";
import { APP_ROUTES } from "./fuzz-app-routes";
import { type Case, contentLength, contentType, cookie, garbageText, headerName, headerValue, ip, METHODS } from "./fuzz-cases";
import { MORE_ROUTES } from "./fuzz-more-routes";
import type { Route } from "./fuzz-route-types";

export type { Module, Route } from "./fuzz-route-types";

export const ROUTES: Route[] = [...API_ROUTES, ...APP_ROUTES, ...MORE_ROUTES];

export function caseOf(route: Route): fc.Arbitrary<Case> {
  const method = route.serves.length
    ? fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...route.serves) }, { weight: 1, arbitrary: fc.constantFrom(...METHODS) })
    : fc.constantFrom(...METHODS);
  return fc.record({
    method,
    credential: route.credential,
    cookie,
    contentType,
    contentLength,
    ip,
    extraHeaders: fc
      .tuple(route.headers ?? fc.constant([]), fc.array(fc.tuple(headerName, headerValue), { maxLength: 3 }))
      .map(([a, b]) => [...a, ...b]),
    body: route.body,
    pick: fc.nat(),
    id: fc.constantFrom("own" as const, "own" as const, "own" as const, "other" as const, "random" as const, "garbage" as const),
    uuid: fc.uuid(),
    garbageId: garbageText,
  });
}
