import "server-only";
import { A2A_VERSION_HEADER, type AgentCard, Extensions, formatSSEErrorEvent, formatSSEEvent, SSE_HEADERS } from "@a2a-js/sdk";
import { isLegacyJsonRpcMethod, LEGACY_METHOD_MESSAGE_SEND, LEGACY_METHOD_MESSAGE_STREAM } from "@a2a-js/sdk/compat/v0_3";
import { LegacyJsonRpcTransportHandler } from "@a2a-js/sdk/compat/v0_3/server";
import { A2AError, fromJsonRpcErrorResponse, restStatusFor, TaskNotCancelableError, TaskNotFoundError } from "@a2a-js/sdk/errors";
import {
  type AgentExecutor,
  DefaultRequestHandler,
  JsonRpcTransportHandler,
  ServerCallContext,
  type TaskStore,
  validateVersion,
} from "@a2a-js/sdk/server";
import { rawMessageText } from "@/lib/a2a/message-text";
import { ApiError } from "@/lib/http/api-error";
import { readBodyText } from "@/lib/http/read-body";
import { toErrorResponse } from "@/lib/http/to-error-response";
import { MESSAGE_MAX_CHARS } from "@/lib/schemas/renter-api";

// /v1/chat's body cap: a message is at most 10,000 characters, and the envelope around it is small.
const MAX_BODY_BYTES = 256 * 1024;
// A comment line on the event stream while the owner's webhook answers (up to 30 s): proxies and
// clients that drop a connection silent for a while keep it open. SSE parsers skip comments.
// Mutable so a test can shorten it.
export const a2aStreamSettings = { keepAliveMs: 10_000 };

const SEND_METHODS = new Set(["SendMessage", "SendStreamingMessage", LEGACY_METHOD_MESSAGE_SEND, LEGACY_METHOD_MESSAGE_STREAM]);

// JSON-RPC's own codes, as HTTP: the envelope or its params are wrong (400), no such method (404).
const JSON_RPC_HTTP_STATUS: Record<number, number> = { [-32700]: 400, [-32600]: 400, [-32601]: 404, [-32602]: 400, [-32603]: 500 };

export type A2aEndpoint = {
  card: AgentCard;
  executor: AgentExecutor;
  taskStore: TaskStore;
  /** Runs before a message is sent (not before reading a task): e.g. the rental is still usable. */
  beforeSend?: () => void;
  /** A message must carry text (a listing's agent); the marketplace also takes filters alone. */
  textRequired?: boolean;
};

type JsonRpcId = string | number | null;
type JsonRpcError = { code: number; message: string; data?: unknown };

/**
 * One A2A JSON-RPC request to an endpoint, on the official SDK: its DefaultRequestHandler over our
 * executor and task store, and its transport handlers: JsonRpcTransportHandler for protocol v1.0
 * (what @a2a-js/sdk 1.3's client sends, with `A2A-Version: 1.0`) and LegacyJsonRpcTransportHandler
 * for v0.3 (`message/send`, `message/stream`, `tasks/get`, `tasks/cancel`). The version is the
 * header's; without one, the method's name tells (the SDK's Express handler would take every
 * header-less call for v0.3, refusing a v1.0 name sent by curl).
 *
 * Answers: a JSON-RPC response, or for streaming methods an event stream (SSE) with keep-alive
 * comments. Every error is a JSON-RPC error object with the matching HTTP status: the SDK's own
 * mapping for A2A errors (task not found 404, not cancelable 400 as FAILED_PRECONDITION, …), 400/404 for malformed calls
 * and unknown methods, and the service's statuses (401, 403, 413, 429 with Retry-After, 503).
 */
export async function serveA2a(req: Request, endpoint: A2aEndpoint): Promise<Response> {
  let id: JsonRpcId = null;
  let legacy = false;
  try {
    const contentType = req.headers.get("content-type");
    if (contentType && contentType.split(";", 1)[0].trim().toLowerCase() !== "application/json") {
      return errorResponse(null, { code: -32005, message: `Unsupported Content-Type "${contentType}"; send application/json.` }, 415);
    }
    let body: unknown;
    try {
      body = JSON.parse(await readBodyText(req, MAX_BODY_BYTES));
    } catch (error) {
      if (error instanceof ApiError) throw error;
      return errorResponse(null, { code: -32700, message: "Parse error: the body is not JSON." }, 400);
    }
    if (body === null || typeof body !== "object" || Array.isArray(body)) {
      return errorResponse(
        null,
        { code: -32600, message: "Invalid request: send one JSON-RPC 2.0 request object (batches are not supported)." },
        400,
      );
    }
    const call = body as { id?: unknown; method?: unknown; params?: unknown };
    id = typeof call.id === "string" || typeof call.id === "number" ? call.id : null;
    const method = typeof call.method === "string" ? call.method : "";
    const version = req.headers.get(A2A_VERSION_HEADER)?.trim() || undefined;
    legacy = version ? /^0\.3(\.|$)/.test(version) : isLegacyJsonRpcMethod(method);
    const requestedVersion = version ?? (legacy ? "0.3" : "1.0");

    if (SEND_METHODS.has(method)) {
      const text = rawMessageText(call.params);
      if (!text && endpoint.textRequired !== false)
        return errorResponse(id, { code: -32602, message: "Invalid params: the message needs a text part with the text to send." }, 400);
      if (text && text.length > MESSAGE_MAX_CHARS) {
        return errorResponse(
          id,
          { code: -32602, message: `Invalid params: the message's text is longer than ${MESSAGE_MAX_CHARS} characters.` },
          400,
        );
      }
      endpoint.beforeSend?.();
    }

    validateVersion(requestedVersion, endpoint.card, "JSONRPC");
    const handler = new A2aRequestHandler(endpoint.card, endpoint.taskStore, endpoint.executor);
    const context = new ServerCallContext({
      requestedVersion,
      requestedExtensions: Extensions.parseServiceParameter(req.headers.get(legacy ? "X-A2A-Extensions" : "A2A-Extensions") ?? undefined),
    });
    const transport = legacy ? new LegacyJsonRpcTransportHandler(handler) : new JsonRpcTransportHandler(handler);
    const result = await transport.handle(body as Record<string, unknown>, context);

    if (Symbol.asyncIterator in result) {
      const iterator = result[Symbol.asyncIterator]();
      // The first event (the task) comes at once; an error before it is a plain JSON answer.
      let first: IteratorResult<unknown>;
      try {
        first = await iterator.next();
      } catch (error) {
        return errorFor(id, error, legacy);
      }
      return eventStream(first, iterator, (error) => ({ jsonrpc: "2.0", id, error: jsonRpcError(error, legacy) }));
    }
    if ("error" in result && result.error)
      return errorResponse(result.id ?? id, result.error as JsonRpcError, statusForEnvelope(result as never));
    return Response.json(result);
  } catch (error) {
    return errorFor(id, error, legacy);
  }
}

/**
 * The SDK's request handler with cancellation answered as this service can: every message is
 * delivered to the owner's webhook when its task starts, so no task can be cancelled. The spec's
 * TaskNotCancelableError (HTTP 400, the SDK's status for it), or TaskNotFoundError (404) for a task the caller cannot read. The
 * SDK's own cancel, for a task another instance is still working on, would mark it cancelled in
 * the store while that instance goes on to complete it.
 */
class A2aRequestHandler extends DefaultRequestHandler {
  constructor(
    card: AgentCard,
    private readonly tasks: TaskStore,
    executor: AgentExecutor,
  ) {
    super(card, tasks, executor);
  }

  override async cancelTask(params: { id: string }, context: ServerCallContext): Promise<never> {
    const task = params.id ? await this.tasks.load(params.id, context) : undefined;
    if (!task) throw new TaskNotFoundError(`Task not found: ${params.id}`);
    throw new TaskNotCancelableError(`Task not cancelable: ${params.id}. Its message was delivered to the agent when the task started.`);
  }
}

function eventStream(
  first: IteratorResult<unknown>,
  iterator: AsyncIterator<unknown>,
  errorEnvelope: (error: unknown) => unknown,
): Response {
  const encoder = new TextEncoder();
  let open = true;
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (text: string) => {
        if (open) controller.enqueue(encoder.encode(text));
      };
      const keepAlive = setInterval(() => send(": keep-alive\n\n"), a2aStreamSettings.keepAliveMs);
      try {
        if (!first.done) send(formatSSEEvent(first.value));
        if (!first.done) {
          for (let next = await iterator.next(); !next.done; next = await iterator.next()) send(formatSSEEvent(next.value));
        }
      } catch (error) {
        send(formatSSEErrorEvent(errorEnvelope(error)));
      } finally {
        clearInterval(keepAlive);
        if (open) controller.close();
        open = false;
      }
    },
    cancel() {
      open = false;
      void iterator.return?.();
    },
  });
  return new Response(stream, { headers: SSE_HEADERS });
}

// Where a JSON-RPC error envelope from the SDK's transport sits in HTTP.
function statusForEnvelope(envelope: { jsonrpc: string; id: JsonRpcId; error: JsonRpcError }): number {
  return JSON_RPC_HTTP_STATUS[envelope.error.code] ?? restStatusFor(fromJsonRpcErrorResponse(envelope as never));
}

function jsonRpcError(error: unknown, legacy: boolean): JsonRpcError {
  if (error instanceof A2AError) {
    return legacy ? LegacyJsonRpcTransportHandler.mapToLegacyJSONRPCError(error) : JsonRpcTransportHandler.mapToJSONRPCError(error);
  }
  return serviceError(error).error;
}

/** Any error thrown before a call is read (the rate limit, the agent, the rental code), as JSON-RPC. */
export function a2aErrorResponse(error: unknown): Promise<Response> {
  return errorFor(null, error, false);
}

async function errorFor(id: JsonRpcId, error: unknown, legacy: boolean): Promise<Response> {
  if (error instanceof A2AError) return errorResponse(id, jsonRpcError(error, legacy), restStatusFor(error));
  const { error: rpcError, status, headers } = serviceError(error);
  return errorResponse(id, rpcError, status, headers);
}

// The service's own refusals (ApiError, the database down, a bug) in the project's one mapping
// (toErrorResponse: status, Retry-After, a message for people), as a JSON-RPC error: invalid params
// for a 400, otherwise the server-error code -32000 with the HTTP status and a reason in the data.
function serviceError(error: unknown): { error: JsonRpcError; status: number; headers: Headers } {
  const res = toErrorResponse(error);
  const message =
    error instanceof ApiError
      ? error.message
      : res.status === 503
        ? "The service is temporarily unavailable; try again shortly."
        : "Internal error; please try again later.";
  const code = res.status === 400 ? -32602 : -32000;
  return {
    error: {
      code,
      message,
      data: [
        {
          "@type": "type.googleapis.com/google.rpc.ErrorInfo",
          reason: REASONS[res.status] ?? "INTERNAL",
          domain: "agent-rental-service",
          metadata: { httpStatus: String(res.status) },
        },
      ],
    },
    status: res.status,
    headers: res.headers,
  };
}

const REASONS: Record<number, string> = {
  400: "INVALID_ARGUMENT",
  401: "UNAUTHENTICATED",
  403: "PERMISSION_DENIED",
  404: "NOT_FOUND",
  413: "PAYLOAD_TOO_LARGE",
  429: "RESOURCE_EXHAUSTED",
  502: "AGENT_FAILED",
  503: "UNAVAILABLE",
};

function errorResponse(id: JsonRpcId, error: JsonRpcError, status: number, headers?: Headers): Response {
  const res = Response.json({ jsonrpc: "2.0", id, error }, { status });
  headers?.forEach((value, name) => {
    if (name.toLowerCase() !== "content-type") res.headers.set(name, value);
  });
  return res;
}
