// POST /api/v1/mcp — an MCP server (Streamable HTTP, stateless, JSON answers) for the rented
// agent: tools `chat` and `status`, the rental code as Bearer; same limits and recording as /v1.
import { renterMethodNotAllowed, renterPreflight, renterRoute } from "@/lib/http/routes/renter-route";
import { rentalMcpServer } from "@/lib/mcp/rental-mcp-server";
import { serveMcp } from "@/lib/mcp/serve-mcp";

export const POST = renterRoute(401, ({ req, auth: rental }) => serveMcp(req, (tokens) => rentalMcpServer(rental, tokens)));

export const OPTIONS = renterPreflight;
// No server-to-client stream and no sessions to end: a stateless server answers 405 here.
export const GET = renterMethodNotAllowed("POST");
export const PUT = GET;
export const PATCH = GET;
export const DELETE = GET;
