// POST /api/v1/agents/{agentId}/mcp — an MCP server (Streamable HTTP, stateless, JSON answers)
// selling the agent's answers one at a time: tool `chat`, paid per call through the x402 MCP
// transport (`_meta["x402/payment"]`); no rental code (docs/pay-per-message.md).
import { appUrl } from "@/lib/env";
import { paidAnswerRoute, renterMethodNotAllowed, renterPreflight } from "@/lib/http/routes/renter-route";
import { paidAnswerMcpServer } from "@/lib/mcp/paid-answer-mcp-server";
import { serveMcp } from "@/lib/mcp/serve-mcp";
import { loadSoldAgent } from "@/lib/x402/sell-answer";

export const POST = paidAnswerRoute<{ agentId: string }>(async ({ req, params }) => {
  const agent = await loadSoldAgent(params.agentId);
  const endpoint = new URL(`/api/v1/agents/${agent.id}/mcp`, appUrl()).toString();
  return serveMcp(req, (tokens) => paidAnswerMcpServer(agent, tokens, endpoint));
});

export const OPTIONS = renterPreflight;
export const GET = renterMethodNotAllowed("POST");
export const PUT = GET;
export const PATCH = GET;
export const DELETE = GET;
