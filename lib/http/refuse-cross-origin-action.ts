// A POST to a page is a server action: sent by the page's script (with a Next-Action header), or a
// form posted before the script ran. Next.js refuses one whose Origin is not the host it was sent
// to (its CSRF check) by throwing, which answers 500 and logs an error; the proxy answers those
// requests 403 first, in words (docs/auth.md).

const MESSAGE = "This action was sent from another site, not from this site's own pages, so it was refused and nothing was changed.";

// A page for a form posted from elsewhere (the browser shows it in place of the page): nothing in it
// comes from the request, and it runs and loads nothing.
const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Refused · Agent Rental Service</title></head><body><main><h1>Refused</h1><p>${MESSAGE}</p><p><a href="/">Go to Agent Rental Service</a></p></main></body></html>`;

/**
 * The 403 for a POST to a page whose Origin header is not the host it was sent to, or null for
 * any other request. The same rule as Next.js's own check, so it refuses exactly what Next.js
 * would have refused with a 500: the Origin's host against the first X-Forwarded-Host, else Host,
 * compared as sent; "null" and unreadable origins never match. A request without an Origin (not a
 * browser's, so it carries nobody's cookies unwillingly) is left to Next.js, which runs it. An
 * action's fetch gets `{"error": …}`; a form, a page.
 */
export function refuseCrossOriginAction(request: Request): Response | null {
  if (request.method !== "POST") return null;
  const origin = request.headers.get("origin");
  if (origin === null) return null;
  const host = request.headers.get("x-forwarded-host")?.split(",")[0].trim() || request.headers.get("host");
  if (host && originHost(origin) === host) return null;
  const headers = { "Cache-Control": "no-store" };
  if (request.headers.has("next-action")) return Response.json({ error: MESSAGE }, { status: 403, headers });
  return new Response(PAGE, {
    status: 403,
    headers: { ...headers, "Content-Type": "text/html; charset=utf-8", "Content-Security-Policy": "default-src 'none'" },
  });
}

function originHost(origin: string): string | null {
  if (origin === "null") return null;
  try {
    return new URL(origin).host;
  } catch {
    return null;
  }
}
