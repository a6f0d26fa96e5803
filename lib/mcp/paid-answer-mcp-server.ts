import "server-only";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { PaymentPayload, PaymentRequired } from "@x402/core/types";
import { z } from "zod";
import { ApiError } from "@/lib/http/api-error";
import { rateLimitError } from "@/lib/http/rate-limit-error";
import type { ChatCallTokens } from "@/lib/mcp/chat-call-tokens";
import { replyText } from "@/lib/openai/chat-completion";
import { MESSAGE_MAX_CHARS } from "@/lib/schemas/renter-api";
import { sellAnswer } from "@/lib/x402/sell-answer";

// The x402 MCP transport's keys (coinbase/x402 specs/transports-v2/mcp.md).
export const PAYMENT_META_KEY = "x402/payment";
export const PAYMENT_RESPONSE_META_KEY = "x402/payment-response";

// What a payment in `_meta` must look like before it is read (the verifier checks the rest).
const paymentPayloadSchema = z.looseObject({
  x402Version: z.number(),
  accepted: z.looseObject({}),
  payload: z.looseObject({}),
});

/**
 * The MCP server selling one agent's answers (POST /v1/agents/{agentId}/mcp), built per request on
 * the official SDK, with one tool, `chat`, paid per call through the x402 MCP transport: a call
 * without a payment is a tool error carrying the PaymentRequired (in `structuredContent` and as
 * the text), the paid call carries the PaymentPayload in `_meta["x402/payment"]` and its result
 * the settlement in `_meta["x402/payment-response"]`. The same sale as the HTTP route: settled only
 * after the owner answered. The words are the service's own, naming the agent in quotes.
 */
export function paidAnswerMcpServer(agent: { id: string; name: string }, tokens: ChatCallTokens, endpoint: string): McpServer {
  const quoted = JSON.stringify(agent.name);
  const server = new McpServer(
    { name: "agent-rental-service", title: `${agent.name} (answers sold per message)`, version: "1.0.0" },
    {
      instructions: `You are connected to ${quoted}, an AI agent whose answers are sold one at a time through the Agent Rental Service. Each chat call is paid in USDC with x402: a call without a payment returns the payment's requirements; pay them in _meta["${PAYMENT_META_KEY}"] and call again. A call is only charged when the agent answers.`,
    },
  );
  server.registerTool(
    "chat",
    {
      title: `Message ${agent.name} (paid per answer)`,
      description: `Sends one message to ${quoted} and returns its reply, paid per call with x402 (the requirements come back when no payment is given). Each call counts as one request against the rate limit of the renter API.`,
      inputSchema: { message: z.string().min(1).max(MESSAGE_MAX_CHARS).describe(`Your message to ${quoted}.`) },
    },
    async ({ message }, extra): Promise<CallToolResult> => {
      const refusal = await tokens.take();
      if (refusal) {
        const reason = `Rate limited, so the message was not sent to ${quoted}: every chat call counts as one request against the limit of ${refusal.limit} a minute from this address`;
        return { isError: true, content: [{ type: "text", text: rateLimitError(refusal, reason).message }] };
      }
      const given = extra._meta?.[PAYMENT_META_KEY];
      const parsed = given === undefined ? null : paymentPayloadSchema.safeParse(given);
      if (parsed && !parsed.success) {
        return { isError: true, content: [{ type: "text", text: `_meta["${PAYMENT_META_KEY}"] is not an x402 payment payload.` }] };
      }
      try {
        const sale = await sellAnswer({
          agentId: agent.id,
          message,
          payment: (parsed?.data ?? null) as PaymentPayload | null,
          resource: { url: `${endpoint}#chat` },
        });
        if (sale.kind === "payment-required") return paymentRequired(sale.paymentRequired);
        if (sale.kind === "settlement-failed") {
          return { ...paymentRequired(sale.paymentRequired), _meta: { [PAYMENT_RESPONSE_META_KEY]: sale.settlement } };
        }
        const { response } = sale.body;
        const structured = response !== null && typeof response === "object" && !Array.isArray(response);
        return {
          content: [{ type: "text", text: replyText(response) }],
          ...(structured ? { structuredContent: response as Record<string, unknown> } : {}),
          _meta: { [PAYMENT_RESPONSE_META_KEY]: sale.settlement },
        };
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        return {
          isError: true,
          content: [{ type: "text", text: `${agent.name} could not answer (HTTP ${error.status}): ${error.message} Nothing was charged.` }],
        };
      }
    },
  );
  return server;
}

// The transport's "payment required": a tool error whose structured content is the PaymentRequired.
function paymentRequired(required: PaymentRequired): CallToolResult {
  return {
    isError: true,
    structuredContent: required as unknown as Record<string, unknown>,
    content: [{ type: "text", text: JSON.stringify(required) }],
  };
}
