// POST /api/v1/mcp — an MCP server (Streamable HTTP, stateless, JSON answers) for the rented
// agent: tools `chat` and `status`, the rental code as Bearer; same limits and recording as /v1.
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { rateLimitHeaders } from "@/lib/http/rate-limit-error";
import { renterBucket, renterMethodNotAllowed, renterPreflight, renterRoute } from "@/lib/http/routes/renter-route";
import { chatCallTokens } from "@/lib/mcp/chat-call-tokens";
import { rentalMcpServer } from "@/lib/mcp/rental-mcp-server";

export const POST = renterRoute(401, async ({ req, auth: rental }) => {
  // Stateless: every request carries its own credential, so no session survives between them.
  // A chat message is at most 10,000 characters: /v1/chat's body cap is enough for any call.
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
    maxRequestBodySize: 256 * 1024,
  });
  // The transport takes JSON-RPC batches (protocol 2025-03-26, which the SDK still speaks): each
  // chat call after the request's first pays a token of the same bucket.
  const tokens = chatCallTokens(renterBucket(req));
  await rentalMcpServer(rental, tokens).connect(transport);
  const res = await transport.handleRequest(req);
  // Where the bucket stands after those tokens; renterRoute then leaves the headers as they are.
  const lowest = tokens.lowest();
  if (lowest) for (const [name, value] of Object.entries(rateLimitHeaders(lowest))) res.headers.set(name, value);
  return res;
});

export const OPTIONS = renterPreflight;
// No server-to-client stream and no sessions to end: a stateless server answers 405 here.
export const GET = renterMethodNotAllowed("POST");
export const PUT = GET;
export const PATCH = GET;
export const DELETE = GET;
