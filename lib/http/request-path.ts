// The page a request asked for, handed by proxy.ts to server components in a request header:
// Next.js gives them no URL, and a signed-out visitor must be sent to /sign-in?next=<that page>
// (lib/auth/signed-in-account.ts). The proxy sets it on every page request, replacing any value a
// client sent; readers still check it as a path on this site (readSignInNext).
export const REQUEST_PATH_HEADER = "x-request-path";

/** The path and query of a page request, without `_rsc` (Next.js's cache key on client navigations). */
export function requestPath(url: URL): string {
  const query = new URLSearchParams(url.search);
  query.delete("_rsc");
  const search = query.toString();
  return search ? `${url.pathname}?${search}` : url.pathname;
}
