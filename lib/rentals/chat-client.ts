import "client-only";
import { plural } from "@/lib/format/plural";
// The playground's side of POST /api/v1/chat (browser; no server code): the request exactly as a
// script sends it, and the answer turned into a reply to show or a sentence about what failed.

export const CHAT_MESSAGE_MAX = 10_000;

export function chatRequestInit(code: string, message: string): RequestInit {
  return {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-API-Key": code },
    body: JSON.stringify({ message }),
    cache: "no-store",
  };
}

export type ChatResult = { ok: true; reply: string; json: boolean } | { ok: false; error: string };

/** Every failure of POST /api/v1/chat as a sentence (docs/api.md), with the server's own words. */
export function describeChatError(status: number, serverMessage: string | null, retryAfter: string | null): string {
  const said = serverMessage ? ` The server said: “${serverMessage}”` : "";
  switch (status) {
    case 400:
      return `The message was refused (400).${said}`;
    case 401:
      return `The rental code was not accepted (401). Check that the rental has been paid and try again.${said}`;
    case 402:
      // A free trial that is over (docs/trials.md): the server's sentence links to the checkout.
      return `The free trial is over (402).${said}`;
    case 403:
      return `This rental cannot be used right now (403): it has ended, was cancelled or disputed, or has not started yet.${said}`;
    case 429: {
      const seconds = retryAfter && /^\d+$/.test(retryAfter) ? Number(retryAfter) : null;
      return `Too many requests (429). ${seconds ? `Wait ${plural(seconds, "second")} and send again.` : "Wait a moment and send again."}`;
    }
    case 502:
      return `The agent's server answered with an error (502), so there is no reply. Try again; if it keeps failing, the owner needs to fix their webhook.${said}`;
    case 503:
      return `The agent could not be reached (503): it is not connected, unreachable, or did not reply within 30 seconds. Try again in a minute.${said}`;
    default:
      return `The request failed with HTTP ${status}.${said}`;
  }
}

/** The reply exactly as the API returned it: a string as is, anything else as pretty JSON. */
export async function readChatResponse(res: Response): Promise<ChatResult> {
  const body = (await res.json().catch(() => null)) as { response?: unknown; error?: unknown } | null;
  if (res.ok && body && "response" in body) {
    if (typeof body.response === "string") return { ok: true, reply: body.response, json: false };
    return { ok: true, reply: JSON.stringify(body.response, null, 2) ?? "null", json: true };
  }
  if (res.ok) return { ok: false, error: "The API answered, but not with a reply this page can read. Try again." };
  const serverMessage = body && typeof body.error === "string" ? body.error : null;
  return { ok: false, error: describeChatError(res.status, serverMessage, res.headers.get("retry-after")) };
}

/** Sends one message with the rental code; network failures become a sentence too. */
export async function sendChatMessage(code: string, message: string, fetcher: typeof fetch = fetch): Promise<ChatResult> {
  try {
    return await readChatResponse(await fetcher("/api/v1/chat", chatRequestInit(code, message)));
  } catch {
    return { ok: false, error: "Could not reach the server. Check your connection and send again." };
  }
}
