import "server-only";
import { ApiError } from "@/lib/http/api-error";
import type { ChatCompletionMessage } from "@/lib/schemas/openai-compat";
import { chatRequestSchema } from "@/lib/schemas/renter-api";

/**
 * The message sent to the agent: the last `user` message of an OpenAI conversation, its text
 * parts joined with blank lines when it is an array. Earlier turns are not sent: the owner's
 * webhook keeps the conversation by its session key, as it does for /v1/chat. The same rules as
 * /v1/chat's `message` (not empty, at most 10,000 characters) apply.
 */
export function lastUserMessage(messages: ChatCompletionMessage[]): string {
  const last = messages.findLast((m) => m.role === "user");
  if (!last) throw new ApiError(400, "messages: no message has the role user; the last user message is what the agent receives.");
  const text =
    typeof last.content === "string"
      ? last.content
      : (last.content ?? [])
          .filter((part) => part.type === "text" && typeof part.text === "string")
          .map((part) => part.text)
          .join("\n\n");
  const checked = chatRequestSchema.shape.message.safeParse(text);
  if (!checked.success) throw new ApiError(400, `messages: the last user message's text ${checked.error.issues[0]?.message}`);
  return checked.data;
}
