/** What ends a reply cut short on a chat: the API returns it whole. */
export const FULL_REPLY_POINTER =
  "(The reply is longer than this chat shows; the API returns it whole: POST /api/v1/chat with your rental code.)";

// The owner's reply as chat text: a string as it is; an object by its first non-empty `message`,
// `response`, `content` or `text` (the shapes agents commonly answer with), else as formatted JSON.
export function replyText(reply: unknown): string {
  if (typeof reply === "string") return reply.trim() === "" ? "(The agent sent an empty answer.)" : reply;
  if (reply && typeof reply === "object" && !Array.isArray(reply)) {
    for (const key of ["message", "response", "content", "text"]) {
      const value = (reply as Record<string, unknown>)[key];
      if (typeof value === "string" && value.trim() !== "") return value;
    }
  }
  return JSON.stringify(reply, null, 2) ?? "(The agent sent an empty answer.)";
}

/**
 * Splits a reply into at most `maxParts` messages of at most `limit` characters, cutting at a
 * paragraph, line or word break where there is one. What does not fit ends with `more` (a
 * pointer to the API, where the whole reply is returned).
 */
export function splitReply(text: string, limit: number, maxParts: number, more: string): string[] {
  const parts: string[] = [];
  let rest = text;
  while (rest.length > 0 && parts.length < maxParts) {
    const last = parts.length === maxParts - 1;
    const room = last && rest.length > limit ? limit - more.length - 2 : limit;
    if (rest.length <= room) {
      parts.push(rest);
      rest = "";
      break;
    }
    const cut = breakBefore(rest, room);
    parts.push(rest.slice(0, cut).trimEnd());
    rest = rest.slice(cut).trimStart();
  }
  if (rest.length > 0) parts[parts.length - 1] += `\n\n${more}`;
  return parts;
}

// The last paragraph, line or word break in the first `room` characters (past its middle, so a
// part is never tiny); a hard cut when there is none. Never splits a surrogate pair.
function breakBefore(text: string, room: number): number {
  for (const separator of ["\n\n", "\n", " "]) {
    const at = text.lastIndexOf(separator, room - separator.length);
    if (at > room / 2) return at + separator.length;
  }
  const code = text.charCodeAt(room - 1);
  return code >= 0xd800 && code <= 0xdbff ? room - 1 : room;
}
