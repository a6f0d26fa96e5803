import { z } from "zod";
import { chatCompletionRequestSchema, chatCompletionSchema, modelListSchema, openAiErrorSchema } from "@/lib/schemas/openai-compat";
import {
  availabilityResponseSchema,
  chatRequestSchema,
  chatResponseSchema,
  errorResponseSchema,
  statusResponseSchema,
} from "@/lib/schemas/renter-api";
import { paidAnswerResponseSchema, paymentPayloadSchema, paymentRequiredSchema, settlementSchema } from "@/lib/schemas/x402";

// OpenAPI 3.1 description of the renter surface, generated from the same zod schemas the
// handlers use, so the document cannot drift from the code.

type JsonSchema = Record<string, unknown>;

/**
 * The components' schemas from zod. zod names a schema that has an id by a `$ref` into its own
 * `$defs`; inside an OpenAPI document `#/$defs/…` would point at the document's root, where nothing
 * is. So every definition becomes a component of its own and every reference points there.
 */
function componentSchemas(schemas: Record<string, [z.ZodType, "input" | "output"]>): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = {};
  for (const [name, [zodSchema, io]] of Object.entries(schemas)) {
    const {
      $schema: _drop,
      $defs,
      ...root
    } = z.toJSONSchema(zodSchema, { target: "draft-2020-12", io }) as JsonSchema & {
      $defs?: Record<string, JsonSchema>;
    };
    for (const [id, definition] of Object.entries($defs ?? {})) out[id] ??= definition;
    const ownRef = typeof root.$ref === "string" && root.$ref === `#/$defs/${name}`;
    if (!ownRef) out[name] = root;
  }
  return JSON.parse(JSON.stringify(out).replaceAll('"#/$defs/', '"#/components/schemas/'));
}

const error = (description: string) => ({
  description,
  content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
});

const rateLimited = {
  description:
    "Rate limited: 60 requests per minute per client (an IPv6 /64 counts as one) across /v1; 10 wrong rental codes per minute per client; " +
    "or, during a guessing attack across many clients, codes not yet seen in use. The message says which; the RateLimit-* headers describe that limit.",
  headers: {
    "Retry-After": { description: "Seconds to wait (1–60).", schema: { type: "integer", minimum: 1, maximum: 60 } },
  },
  content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
};

const security = [{ ApiKey: [] }, { Bearer: [] }];

// One JSON-RPC message, or a batch of up to 100 (protocol 2025-03-26; the SDK's transport caps it).
const jsonRpcMessages = { oneOf: [{ type: "object" }, { type: "array", items: { type: "object" }, minItems: 1, maxItems: 100 }] };

const openAiError = (description: string) => ({
  description,
  content: { "application/json": { schema: { $ref: "#/components/schemas/OpenAIError" } } },
});

// An x402 header: base64 of a JSON object, described by its component.
const base64Json = (component: string) => ({
  type: "string",
  contentEncoding: "base64",
  contentMediaType: "application/json",
  contentSchema: { $ref: `#/components/schemas/${component}` },
});

const agentIdParameter = {
  name: "agentId",
  in: "path",
  required: true,
  description: "The agent's id, as in its marketplace page's address (/agents/{agentId}).",
  schema: { type: "string", format: "uuid" },
};

const paidRateLimited = {
  ...rateLimited,
  description:
    "Rate limited: 60 requests per minute per client (an IPv6 /64 counts as one) across /v1; or the paying wallet's payments failed verification 10 times within a minute, and it is refused until that minute is over. The message says which.",
};

const paymentRequiredResponse = {
  description:
    "Payment required: no PAYMENT-SIGNATURE was sent (`error` is `Payment required`), or the one sent cannot be used (`error` says why: expired, underfunded, already used or cancelled, not matching the requirements); sign a new one for these requirements and send again. Also when the agent answered but the payment could not be settled on chain: then PAYMENT-RESPONSE says why and the answer is not given. Nothing is charged.",
  headers: {
    "PAYMENT-REQUIRED": {
      description: "The same PaymentRequired as the body, base64 of its JSON (x402 v2).",
      schema: base64Json("PaymentRequired"),
    },
    "PAYMENT-RESPONSE": {
      description: "Only when the agent answered but the settlement failed: base64 of a PaymentResponse with success false.",
      schema: base64Json("PaymentResponse"),
    },
  },
  content: { "application/json": { schema: { $ref: "#/components/schemas/PaymentRequired" } } },
};

// A2A (docs/a2a.md): JSON-RPC 2.0 over POST, as @a2a-js/sdk speaks it; described here for where
// they are and what they answer, the messages themselves by the A2A specification.
const jsonRpcRequest = {
  type: "object",
  required: ["jsonrpc", "method"],
  properties: { jsonrpc: { const: "2.0" }, id: {}, method: { type: "string" }, params: {} },
};
const jsonRpcAnswer = (description: string) => ({
  description,
  content: {
    "application/json": {
      schema: {
        type: "object",
        required: ["jsonrpc"],
        properties: { jsonrpc: { const: "2.0" }, id: {}, result: {}, error: { $ref: "#/components/schemas/JsonRpcError" } },
      },
    },
  },
});
const jsonRpcError = (description: string) => ({
  description,
  content: {
    "application/json": {
      schema: {
        type: "object",
        required: ["jsonrpc", "error"],
        properties: { jsonrpc: { const: "2.0" }, id: {}, error: { $ref: "#/components/schemas/JsonRpcError" } },
      },
    },
  },
});
const a2aVersionHeader = {
  name: "A2A-Version",
  in: "header",
  required: false,
  description: "1.0 (what @a2a-js/sdk 1.3 sends) or 0.3. Without it, the method's name tells: SendMessage… is 1.0, message/send… is 0.3.",
  schema: { type: "string", enum: ["1.0", "0.3"] },
};
const agentCard = (description: string) => ({
  description,
  headers: {
    "Cache-Control": { description: "public, max-age=60, s-maxage=60: cached at the edge for a minute.", schema: { type: "string" } },
  },
  content: { "application/json": { schema: { type: "object", description: "An A2A v1.0 AgentCard in the protocol's JSON form." } } },
});

/** The A2A routes (at the site's root, not under /api): `root` is the site's origin. */
function a2aPaths(root: string) {
  const servers = [{ url: root }];
  const post = (operationId: string, summary: string, description: string, extra: Record<string, unknown>) => ({
    servers,
    post: {
      operationId,
      summary,
      description,
      parameters: [a2aVersionHeader],
      requestBody: { required: true, content: { "application/json": { schema: jsonRpcRequest } } },
      ...extra,
    },
  });
  return {
    "/.well-known/agent-card.json": {
      servers,
      get: {
        operationId: "marketplaceAgentCard",
        summary: "The marketplace's A2A agent card (the find-agents skill)",
        security: [],
        responses: { "200": agentCard("The card.") },
      },
    },
    "/a2a": post(
      "marketplaceA2a",
      "The marketplace's A2A endpoint: the find-agents skill, without a rental code",
      "SendMessage (or message/send; streaming too): the text is the search, a data part may add filters. The answer is a message whose data part lists the listings with their card URLs, prices in USDC and measured reliability. Counts against the 60/min limit of /v1.",
      {
        security: [],
        responses: {
          "200": jsonRpcAnswer("The JSON-RPC answer, or an event stream (text/event-stream) for a streaming method."),
          "400": jsonRpcError("A malformed call (-32700, -32600, -32602)."),
          "404": jsonRpcError("No such method (-32601)."),
          "429": rateLimited,
        },
      },
    ),
    "/a2a/{agentId}/.well-known/agent-card.json": {
      servers,
      get: {
        operationId: "listingAgentCard",
        summary: "A listing's A2A agent card",
        security: [],
        parameters: [agentIdParameter],
        responses: {
          "200": agentCard("The card."),
          "404": {
            ...error("No agent listed under this id: unknown, deleted, offline or without a webhook."),
            headers: agentCard("").headers,
          },
        },
      },
    },
    "/a2a/{agentId}": post(
      "listingA2a",
      "A listing's A2A endpoint: a message as a task, its answer as the artifact",
      "JSON-RPC: SendMessage, SendStreamingMessage (server-sent events, keep-alive comments), GetTask, CancelTask, and the v0.3 names message/send, message/stream, tasks/get, tasks/cancel. A message is relayed like POST /v1/chat; the task is readable by the rental that made it for 24 hours; cancelling answers TaskNotCancelableError (-32002, HTTP 400). Every error is a JSON-RPC error object.",
      {
        parameters: [agentIdParameter, a2aVersionHeader],
        security: [{ Bearer: [] }, { ApiKey: [] }],
        responses: {
          "200": jsonRpcAnswer("The JSON-RPC answer, or an event stream (text/event-stream) for a streaming method."),
          "400": jsonRpcError(
            "A malformed call, a message without text or over 10,000 characters, an ambiguous code, or a task that cannot be cancelled.",
          ),
          "401": jsonRpcError("Missing or invalid rental code."),
          "403": jsonRpcError("The rental is for another agent, or is not active (ended, cancelled, not started)."),
          "404": jsonRpcError("No agent under this id, no such task for this rental, or no such method."),
          "413": jsonRpcError("The body is over 256 KiB."),
          "429": rateLimited,
        },
      },
    ),
  };
}

export function renterOpenApi(serverUrl: string) {
  return {
    openapi: "3.1.0",
    info: {
      title: "Agent Rental Service — renter API",
      version: "1.0.0",
      description:
        "Talk to a rented AI agent. Authenticate with your rental code (the first 8 or more characters of the rental ID; dashes optional, case-insensitive).",
    },
    servers: [{ url: serverUrl }],
    security,
    paths: {
      "/v1/chat": {
        post: {
          operationId: "chat",
          summary: "Send a message to the rented agent and get its reply",
          requestBody: {
            required: true,
            content: { "application/json": { schema: { $ref: "#/components/schemas/ChatRequest" } } },
          },
          responses: {
            "200": {
              description: "The agent's reply.",
              content: { "application/json": { schema: { $ref: "#/components/schemas/ChatResponse" } } },
            },
            "400": error("`message` missing or invalid, wrong Content-Type, or ambiguous rental code (send more characters)."),
            "401": error("Missing, malformed or unknown rental code."),
            "402": error(
              "A free trial's code whose messages are used up, or whose owner ended the trial offer; the message names the checkout's URL (docs/trials.md).",
            ),
            "403": error("Rental not active: cancelled, disputed, completed, expired or not yet started."),
            "429": rateLimited,
            "502": error("The agent's webhook returned a non-2xx status."),
            "503": error("The agent's webhook is not configured, unreachable, or gave no reply within 30 seconds."),
          },
        },
      },
      "/v1/status": {
        get: {
          operationId: "status",
          summary: "Read the rental's current state (does not call the agent)",
          responses: {
            "200": {
              description: "The rental and its agent; for a free trial's code also `trial.messages_left`.",
              content: { "application/json": { schema: { $ref: "#/components/schemas/StatusResponse" } } },
            },
            "400": error("Ambiguous rental code (send more characters)."),
            "401": error("Missing or malformed rental code."),
            "404": error("Rental not found."),
            "429": rateLimited,
          },
        },
      },
      "/v1/availability": {
        get: {
          operationId: "availability",
          summary: "Read the rental's measured minutes, its down minutes and the refund they make due",
          description:
            "Every minute of a running rental is measured: a signed health check to the agent, and the rental's own chat calls (down when at least half of a minute's calls failed with a 5xx). Down minutes beyond the listing's uptime guarantee are refunded by the escrow when the rental ends. Does not call the agent; same rate limit as the other /v1 endpoints.",
          responses: {
            "200": {
              description: "The rental's availability so far (once it has ended, the final record).",
              content: { "application/json": { schema: { $ref: "#/components/schemas/AvailabilityResponse" } } },
            },
            "400": error("Ambiguous rental code (send more characters)."),
            "401": error("Missing or malformed rental code."),
            "404": error("Rental not found."),
            "429": rateLimited,
          },
        },
      },
      "/v1/chat/completions": {
        post: {
          operationId: "createChatCompletion",
          summary: "The same as /v1/chat, in OpenAI's Chat Completions format",
          description:
            "For the official OpenAI clients: base URL {app_url}/api/v1, the rental code as the API key. The last user message goes to the agent. Errors in OpenAI's shape, with /v1/chat's statuses; same rate limit.",
          requestBody: {
            required: true,
            content: { "application/json": { schema: { $ref: "#/components/schemas/ChatCompletionRequest" } } },
          },
          responses: {
            "200": {
              description:
                "The agent's reply as a chat.completion, or (stream: true) server-sent chat.completion.chunk events ending with data: [DONE].",
              content: {
                "application/json": { schema: { $ref: "#/components/schemas/ChatCompletion" } },
                "text/event-stream": { schema: { type: "string" } },
              },
            },
            "400": openAiError("No user message, its text empty or over 10,000 characters, or an invalid body."),
            "401": openAiError("Missing, malformed or unknown rental code."),
            "402": openAiError("A free trial that is over (insufficient_quota, trial_over); the message names the checkout's URL."),
            "403": openAiError("Rental not active: cancelled, disputed, completed, expired or not yet started."),
            "429": { ...rateLimited, content: { "application/json": { schema: { $ref: "#/components/schemas/OpenAIError" } } } },
            "502": openAiError("The agent's webhook returned a non-2xx status."),
            "503": openAiError("The agent's webhook is not configured, unreachable, or gave no reply within 30 seconds."),
          },
        },
      },
      "/v1/models": {
        get: {
          operationId: "listModels",
          summary: "OpenAI's model list: the rented agent is the one model",
          responses: {
            "200": {
              description: "One model: the agent.",
              content: { "application/json": { schema: { $ref: "#/components/schemas/ModelList" } } },
            },
            "401": openAiError("Missing, malformed or unknown rental code."),
            "429": { ...rateLimited, content: { "application/json": { schema: { $ref: "#/components/schemas/OpenAIError" } } } },
          },
        },
      },
      "/v1/mcp": {
        post: {
          operationId: "mcp",
          summary: "An MCP server (Streamable HTTP, stateless) with the tools chat and status",
          description:
            "A JSON-RPC 2.0 message of the Model Context Protocol (or a batch of them), from an MCP client; the rental code as Bearer token. Each chat call counts as one request against the rate limit, in a batch too.",
          requestBody: { required: true, content: { "application/json": { schema: jsonRpcMessages } } },
          responses: {
            "200": {
              description: "The JSON-RPC answer (an array for a batch).",
              content: { "application/json": { schema: jsonRpcMessages } },
            },
            "202": { description: "A notification, accepted." },
            "401": error("Missing, malformed or unknown rental code."),
            "429": rateLimited,
          },
        },
      },
      "/v1/agents/{agentId}/chat": {
        post: {
          operationId: "paidAnswer",
          summary: "Buy one answer from an agent sold per message, paid with x402 (no rental)",
          description:
            "For agents whose listing has a price per message. No rental code: the first request gets 402 with the payment's requirements (exact scheme, USDC, price + fee, to the escrow contract); the client signs an EIP-3009 transfer authorization for them and sends the same request again with it in PAYMENT-SIGNATURE (x402 v2, e.g. @x402/fetch). The agent's webhook is asked, and only a 2xx answer is settled on chain (RentalEscrow.payForMessage); when the agent fails (502/503) nothing is charged and the authorization is never used. Same 60/min rate limit as the other /v1 endpoints.",
          security: [],
          parameters: [
            agentIdParameter,
            {
              name: "PAYMENT-SIGNATURE",
              in: "header",
              required: false,
              description: "The payment, on the paid retry: base64 of the PaymentPayload's JSON. Each authorization is used once.",
              schema: base64Json("PaymentPayload"),
            },
          ],
          requestBody: {
            required: true,
            content: { "application/json": { schema: { $ref: "#/components/schemas/ChatRequest" } } },
          },
          responses: {
            "200": {
              description: "The agent's answer; the payment is settled.",
              headers: {
                "PAYMENT-RESPONSE": {
                  description: "The settlement, base64 of a PaymentResponse's JSON.",
                  schema: base64Json("PaymentResponse"),
                },
              },
              content: { "application/json": { schema: { $ref: "#/components/schemas/PaidAnswerResponse" } } },
            },
            "400": error(
              "`message` missing or invalid, wrong Content-Type, or a PAYMENT-SIGNATURE header that is not base64 of a JSON payment.",
            ),
            "402": paymentRequiredResponse,
            "404": error("No agent is sold per message under this id."),
            "429": paidRateLimited,
            "502": error(
              "The agent's webhook returned a non-2xx status (or over 1 MiB). Nothing was charged; the authorization was not used.",
            ),
            "503": error(
              "The agent is offline, its webhook is not configured or unreachable, or it gave no reply within 30 seconds. Nothing was charged; the authorization was not used.",
            ),
          },
        },
      },
      "/v1/agents/{agentId}/mcp": {
        post: {
          operationId: "paidAnswerMcp",
          summary: "An MCP server (Streamable HTTP, stateless) with one tool, chat, paid per call with x402",
          description:
            'The x402 MCP transport: a chat call without a payment is a tool error (isError) whose structuredContent, and content[0].text as JSON, is the PaymentRequired; the paid call carries the PaymentPayload object (not base64) in params._meta["x402/payment"], and its result the settlement in _meta["x402/payment-response"]. No rental code. Each chat call counts as one request against the rate limit.',
          security: [],
          parameters: [agentIdParameter],
          requestBody: { required: true, content: { "application/json": { schema: jsonRpcMessages } } },
          responses: {
            "200": {
              description: "The JSON-RPC answer (an array for a batch).",
              content: { "application/json": { schema: jsonRpcMessages } },
            },
            "202": { description: "A notification, accepted." },
            "404": error("No agent is sold per message under this id."),
            "429": rateLimited,
            "503": error("The agent is offline."),
          },
        },
      },
      ...a2aPaths(serverUrl.replace(/\/api\/?$/, "")),
    },
    components: {
      securitySchemes: {
        ApiKey: { type: "apiKey", in: "header", name: "X-API-Key", description: "Rental code." },
        Bearer: { type: "http", scheme: "bearer", description: "Rental code as a bearer token." },
      },
      schemas: {
        ...componentSchemas({
          ChatRequest: [chatRequestSchema, "input"],
          ChatResponse: [chatResponseSchema, "output"],
          StatusResponse: [statusResponseSchema, "output"],
          AvailabilityResponse: [availabilityResponseSchema, "output"],
          Error: [errorResponseSchema, "output"],
          ChatCompletionRequest: [chatCompletionRequestSchema, "input"],
          ChatCompletion: [chatCompletionSchema, "output"],
          ModelList: [modelListSchema, "output"],
          OpenAIError: [openAiErrorSchema, "output"],
          PaidAnswerResponse: [paidAnswerResponseSchema, "output"],
          PaymentRequired: [paymentRequiredSchema, "output"],
          PaymentPayload: [paymentPayloadSchema, "input"],
          PaymentResponse: [settlementSchema, "output"],
        }),
        // Beside the zod ones: a JSON-RPC 2.0 error object as the A2A endpoints answer it.
        JsonRpcError: {
          type: "object",
          required: ["code", "message"],
          properties: {
            code: {
              type: "integer",
              description:
                "A2A's codes (-32001 task not found, -32002 not cancelable, …), JSON-RPC's, or -32000 for the service's refusals.",
            },
            message: { type: "string" },
            data: { description: "For -32000: an ErrorInfo whose metadata.httpStatus is the HTTP status." },
          },
        },
      },
    },
  };
}
