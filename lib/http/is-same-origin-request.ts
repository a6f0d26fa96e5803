/**
 * Whether a browser sent this request from a page of this same site: what a form POST that acts
 * on the visitor's session must check, since SameSite cookies do not guard a sign-in (there is no
 * cookie yet). Browsers mark where a request comes from with Sec-Fetch-Site; older ones send only
 * Origin, compared with the host the request was made to. A request that says neither is refused.
 */
export function isSameOriginRequest(req: Request): boolean {
  const site = req.headers.get("sec-fetch-site");
  if (site) return site === "same-origin";
  const origin = req.headers.get("origin");
  if (!origin || origin === "null") return false;
  const host = req.headers.get("x-forwarded-host") ?? req.headers.get("host") ?? new URL(req.url).host;
  try {
    return new URL(origin).host === host;
  } catch {
    return false;
  }
}
