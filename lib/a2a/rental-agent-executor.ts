import "server-only";
import { createHash, randomUUID } from "node:crypto";
import { type Message, type Part, Role, TaskState } from "@a2a-js/sdk";
import { TaskNotCancelableError } from "@a2a-js/sdk/errors";
import { AgentEvent, type AgentExecutor, type ExecutionEventBus, type RequestContext } from "@a2a-js/sdk/server";
import { messageText } from "@/lib/a2a/message-text";
import { ApiError } from "@/lib/http/api-error";
import { replyText } from "@/lib/openai/chat-completion";
import { chatWithRental } from "@/lib/rentals/chat-with-rental";
import type { RentalWithAgent } from "@/lib/rentals/find-rental-by-code";

/**
 * The agent behind a listing's A2A endpoint, for one rental: each message is one task, relayed
 * through the same chatWithRental as /v1/chat (channel "A2A", the rental's limits, recorded like
 * every chat). The task is published as working, then the webhook's reply as its artifact (a text
 * part, or a data part when the reply is a JSON object or array) and the task completed; a refusal
 * of the owner's side (non-2xx, timeout, unreachable, the rental ended meanwhile) fails the task
 * with the reason as its status message, as the same call on /v1/chat answers 5xx or 403.
 */
export class RentalAgentExecutor implements AgentExecutor {
  constructor(private readonly rental: RentalWithAgent) {}

  async execute(context: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const { taskId, contextId, userMessage } = context;
    const now = () => new Date().toISOString();
    bus.publish(
      AgentEvent.task({
        id: taskId,
        contextId,
        status: { state: TaskState.TASK_STATE_WORKING, message: undefined, timestamp: now() },
        artifacts: [],
        history: [userMessage],
        metadata: {},
      }),
    );
    try {
      const { response } = await chatWithRental(this.rental, messageText(userMessage), {
        channel: "A2A",
        sessionKey: a2aSessionKey(this.rental.sessionKey, contextId),
      });
      bus.publish(
        AgentEvent.artifactUpdate({
          taskId,
          contextId,
          artifact: {
            artifactId: randomUUID(),
            name: "answer",
            description: "The agent's answer, as its webhook returned it.",
            parts: [replyPart(response)],
            metadata: {},
            extensions: [],
          },
          append: false,
          lastChunk: true,
          metadata: {},
        }),
      );
      bus.publish(
        AgentEvent.statusUpdate({
          taskId,
          contextId,
          status: { state: TaskState.TASK_STATE_COMPLETED, message: undefined, timestamp: now() },
          metadata: {},
        }),
      );
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      const reason = agentMessage(taskId, contextId, `${this.rental.agent.name} could not answer (HTTP ${error.status}): ${error.message}`);
      bus.publish(
        AgentEvent.statusUpdate({
          taskId,
          contextId,
          status: { state: TaskState.TASK_STATE_FAILED, message: reason, timestamp: now() },
          metadata: {},
        }),
      );
    }
    bus.finished();
  }

  // A message is delivered to the owner's webhook as soon as its task starts, and its answer
  // cannot be withdrawn; a finished task cannot be cancelled either (the spec's TaskNotCancelableError).
  async cancelTask(taskId: string): Promise<void> {
    throw new TaskNotCancelableError(`Task ${taskId} cannot be cancelled: its message was delivered to the agent at once.`);
  }
}

/**
 * The owner's conversation key for an A2A context: derived from the rental's random session key,
 * so it is stable per rental and context, differs between contexts, and reveals neither (the
 * context id is the client's).
 */
export function a2aSessionKey(rentalSessionKey: string, contextId: string): string {
  const digest = createHash("sha256").update(`${rentalSessionKey}\na2a\n${contextId}`).digest("hex");
  return `a2a_${digest.slice(0, 40)}`;
}

// The webhook's reply as a part: a JSON object or array as data, anything else as text.
export function replyPart(reply: unknown): Part {
  if (reply !== null && typeof reply === "object") {
    return { content: { $case: "data", value: reply }, mediaType: "application/json", filename: "", metadata: {} };
  }
  return { content: { $case: "text", value: replyText(reply) }, mediaType: "text/plain", filename: "", metadata: {} };
}

export function agentMessage(taskId: string, contextId: string, text: string): Message {
  return {
    messageId: randomUUID(),
    contextId,
    taskId,
    role: Role.ROLE_AGENT,
    parts: [{ content: { $case: "text", value: text }, mediaType: "text/plain", filename: "", metadata: {} }],
    metadata: {},
    extensions: [],
    referenceTaskIds: [],
  };
}
