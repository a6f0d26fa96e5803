// The renter surface is callable from any browser page (spec: Access-Control-Allow-Origin: *).
// Credentials travel in headers, never cookies, so a wildcard origin is safe.
// The MCP headers too: browser-based MCP clients send them to /v1/mcp. And x402's: the payment on
// a paid retry, and the Access-Control-Expose-Headers request header the official client adds to it.
// And A2A's (/a2a/*): the protocol version and the extensions a client asks for (v1.0 and v0.3 names).
const ALLOWED_HEADERS =
  "Authorization, X-API-Key, Content-Type, Mcp-Protocol-Version, Mcp-Session-Id, PAYMENT-SIGNATURE, Access-Control-Expose-Headers, A2A-Version, A2A-Extensions, X-A2A-Extensions";

export function applyCors(headers: Headers, methods: string): void {
  headers.set("Access-Control-Allow-Origin", "*");
  headers.set("Access-Control-Allow-Methods", methods);
  headers.set("Access-Control-Allow-Headers", ALLOWED_HEADERS);
  headers.set(
    "Access-Control-Expose-Headers",
    "Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, PAYMENT-REQUIRED, PAYMENT-RESPONSE",
  );
}

export function preflight(methods: string): () => Response {
  return () => {
    const res = new Response(null, { status: 204 });
    applyCors(res.headers, methods);
    res.headers.set("Access-Control-Max-Age", "86400");
    return res;
  };
}
