import "server-only";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { rateLimitHeaders } from "@/lib/http/rate-limit-error";
import { renterBucket } from "@/lib/http/routes/renter-route";
import { type ChatCallTokens, chatCallTokens } from "@/lib/mcp/chat-call-tokens";

/**
 * One MCP request (Streamable HTTP, stateless, JSON answers) to a server built for it. Stateless:
 * every request carries its own credential (a rental code, or a payment per call), so no session
 * survives between them. A chat message is at most 10,000 characters: /v1/chat's body cap is
 * enough for any call. The transport takes JSON-RPC batches (protocol 2025-03-26, which the SDK
 * still speaks): each chat call after the request's first pays a token of the /v1 bucket.
 */
export async function serveMcp(req: Request, build: (tokens: ChatCallTokens) => McpServer): Promise<Response> {
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
    maxRequestBodySize: 256 * 1024,
  });
  const tokens = chatCallTokens(renterBucket(req));
  await build(tokens).connect(transport);
  const res = await transport.handleRequest(req);
  // Where the bucket stands after those tokens; the route's wrapper then leaves the headers as they are.
  const lowest = tokens.lowest();
  if (lowest) for (const [name, value] of Object.entries(rateLimitHeaders(lowest))) res.headers.set(name, value);
  return res;
}
