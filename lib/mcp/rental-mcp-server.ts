import "server-only";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { ApiError } from "@/lib/http/api-error";
import { replyText } from "@/lib/openai/chat-completion";
import { chatWithRental } from "@/lib/rentals/chat-with-rental";
import type { RentalWithAgent } from "@/lib/rentals/find-rental-by-code";
import { toStatusResponse } from "@/lib/rentals/to-status-response";
import { MESSAGE_MAX_CHARS } from "@/lib/schemas/renter-api";

/**
 * The MCP server of one rental (POST /v1/mcp), built per request on the official SDK: the rented
 * agent's name and description in its instructions, and two tools — `chat` (a message to the
 * agent through the same proxy, limits and recording as /v1/chat) and `status` (the /v1/status
 * body). A refusal (the rental ended, the webhook failed) is a tool error in words, not a
 * protocol error, so the assistant can tell its user.
 */
export function rentalMcpServer(rental: RentalWithAgent): McpServer {
  const { name, description } = rental.agent;
  const server = new McpServer(
    { name: "agent-rental-service", title: `${name} (rented agent)`, version: "1.0.0" },
    {
      instructions: `You are connected to "${name}", an AI agent rented through the Agent Rental Service. ${description} Send it a message with the chat tool (it answers as itself; it keeps the conversation between calls). The status tool tells whether the rental is active and how long it has left.`,
    },
  );
  server.registerTool(
    "chat",
    {
      title: `Message ${name}`,
      description: `Sends one message to ${name} and returns its reply. ${description}`,
      inputSchema: { message: z.string().min(1).max(MESSAGE_MAX_CHARS).describe(`Your message to ${name}.`) },
    },
    async ({ message }) => {
      try {
        const { response } = await chatWithRental(rental, message);
        const structured = response !== null && typeof response === "object" && !Array.isArray(response);
        return {
          content: [{ type: "text", text: replyText(response) }],
          ...(structured ? { structuredContent: response as Record<string, unknown> } : {}),
        };
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        return { isError: true, content: [{ type: "text", text: `${name} could not answer (HTTP ${error.status}): ${error.message}` }] };
      }
    },
  );
  server.registerTool(
    "status",
    {
      title: "Rental status",
      description: `Whether the rental of ${name} is active, when it ends and the seconds left (the /v1/status body).`,
    },
    async () => {
      const status = toStatusResponse(rental);
      return { content: [{ type: "text", text: JSON.stringify(status) }], structuredContent: status };
    },
  );
  return server;
}
