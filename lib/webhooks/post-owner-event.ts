import "server-only";
import type { WebhookCredentials } from "@/lib/agents/webhook-credentials";
import { ownerCallHeaders } from "@/lib/webhooks/owner-call-headers";
import { safeFetch } from "@/lib/webhooks/safe-fetch";

/** How the owner's webhook answered a call whose reply body is ignored (a health check, a rental event). */
export type OwnerEventResult = {
  /** It answered 2xx. */
  ok: boolean;
  /** Its HTTP status; null when it gave none. */
  statusCode: number | null;
  /** Null when ok; else `HTTP <status>` or the safe fetch's `<code>: <detail>` (lib/format/webhook-failure.ts words it). */
  error: string | null;
  latencyMs: number;
};

/**
 * POSTs `body` to the owner's webhook, signed and authenticated like every call (ownerCallHeaders,
 * `extra` headers included), through the SSRF guard; any 2xx is a success, and a redirect is not
 * followed (a failure). The reply's body is read only to bound it.
 */
export async function postOwnerEvent(
  creds: WebhookCredentials,
  agentName: string,
  body: string,
  extra: Record<string, string>,
  timeoutMs: number,
): Promise<OwnerEventResult> {
  const result = await safeFetch(creds.url, {
    method: "POST",
    headers: ownerCallHeaders(creds, agentName, body, extra),
    body,
    timeoutMs,
    maxBytes: 64 * 1024,
  });
  if (result.kind === "error") {
    return { ok: false, statusCode: null, error: `${result.reason}: ${result.detail}`, latencyMs: result.latencyMs };
  }
  const ok = result.status >= 200 && result.status < 300;
  return { ok, statusCode: result.status, error: ok ? null : `HTTP ${result.status}`, latencyMs: result.latencyMs };
}
