import type { Message } from "@a2a-js/sdk";

/** The text a message carries: its text parts, joined by blank lines. Other parts are not relayed. */
export function messageText(message: Message): string {
  return message.parts
    .flatMap((part) => (part.content?.$case === "text" ? [part.content.value] : []))
    .join("\n\n")
    .trim();
}

/**
 * The same, read from a JSON-RPC request's raw `params` before the SDK parses it, in either
 * protocol's shape: a v1.0 text part is `{"text": …}`, a v0.3 one `{"kind": "text", "text": …}`.
 * Lets the route refuse a message without text, or past the chat limit, as invalid params (HTTP
 * 400) before a task exists.
 */
export function rawMessageText(params: unknown): string | null {
  const parts = (params as { message?: { parts?: unknown } } | null)?.message?.parts;
  if (!Array.isArray(parts)) return null;
  return parts
    .flatMap((part) =>
      part !== null && typeof part === "object" && typeof (part as { text?: unknown }).text === "string"
        ? [(part as { text: string }).text]
        : [],
    )
    .join("\n\n")
    .trim();
}
