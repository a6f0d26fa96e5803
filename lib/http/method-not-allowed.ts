// Next.js answers a method a route does not export with an empty 405; the API's routes export
// every method and answer the ones they do not serve in the spec's error form instead.
export function methodNotAllowed(allowed: string) {
  return () => Response.json({ error: `Method not allowed; use ${allowed}.` }, { status: 405, headers: { Allow: allowed } });
}
