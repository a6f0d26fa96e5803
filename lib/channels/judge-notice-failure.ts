import "server-only";

/**
 * What a failed chat notice's error says about a next try. A notice is sent at most once, and the
 * platforms take no idempotency key, so a try the platform may have received (no answer in time,
 * the connection dropped mid-request) is never repeated. A platform's refusal of the notice itself
 * (the user blocked the bot, the chat is gone: a 4xx) is final. A rate limit (429) is tried again
 * after the wait the platform asked for; a server error (5xx) or a request that never left (the
 * connection refused, the bot not configured) after the sender's backoff.
 */
export type NoticeFailure = { retry: boolean; retryAfterMs?: number; reason: string };

const UNANSWERED = new Set([
  "TimeoutError",
  "AbortError",
  "ECONNABORTED", // axios (Slack's WebClient): its timeout ran out
  "ECONNRESET",
  "EPIPE",
  "UND_ERR_SOCKET",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
]);

type ErrorLike = {
  name?: unknown;
  code?: unknown;
  message?: unknown;
  cause?: unknown;
  error?: unknown; // grammY's HttpError
  original?: unknown; // Slack's WebAPIRequestError
  error_code?: unknown; // grammY's GrammyError
  description?: unknown;
  parameters?: { retry_after?: unknown };
  retryAfter?: unknown; // Slack's WebAPIRateLimitedError
  statusCode?: unknown; // Slack's WebAPIHTTPError
  data?: { error?: unknown }; // Slack's WebAPIPlatformError
  adapter?: unknown; // the Chat SDK's AdapterError (@chat-adapter/*): its adapter's name
  status?: unknown; // @chat-adapter/whatsapp's WhatsAppApiError: the Graph API's HTTP status
  errorCode?: unknown; // … and Meta's error code
  originalError?: unknown; // the Chat SDK's NetworkError
};

// The Chat SDK's errors that say the platform will not take the message: never tried again.
const SDK_REFUSALS = new Set(["AuthenticationError", "PermissionError", "ResourceNotFoundError", "ValidationError"]);
// Meta's throughput and pair rate limits, answered with HTTP 400 but worth another try later.
const META_RATE_LIMITS = new Set([4, 80007, 130429, 131056]);

export function judgeNoticeFailure(error: unknown): NoticeFailure {
  const e = (typeof error === "object" && error !== null ? error : { message: String(error) }) as ErrorLike;
  const message = String(e.message ?? error).slice(0, 300);
  if (unanswered(e) || /timed out/i.test(message))
    return { retry: false, reason: `no answer from the platform (${message}): not sent again, it may have arrived` };
  if (typeof e.error_code === "number")
    return byStatus(e.error_code, `Telegram: ${e.error_code} ${String(e.description)}`, seconds(e.parameters?.retry_after));
  if (e.code === "slack_webapi_rate_limited_error")
    return { retry: true, retryAfterMs: seconds(e.retryAfter), reason: "Slack: rate limited" };
  if (e.code === "slack_webapi_platform_error") return { retry: false, reason: `Slack refused it: ${String(e.data?.error)}` };
  if (e.code === "slack_webapi_http_error" && typeof e.statusCode === "number")
    return byStatus(e.statusCode, `Slack: HTTP ${e.statusCode}`);
  if (typeof e.adapter === "string") return sdkFailure(e, message);
  const discord = /^Discord answered .* with HTTP (\d{3})$/.exec(message);
  if (discord) return byStatus(Number(discord[1]), message);
  return { retry: true, reason: message };
}

// An error of a bot on the Chat SDK, by the class its adapter threw (and Meta's codes for WhatsApp).
function sdkFailure(e: ErrorLike, message: string): NoticeFailure {
  if (e.name === "AdapterRateLimitError") return { retry: true, retryAfterMs: seconds(e.retryAfter), reason: message };
  if (typeof e.errorCode === "number" && META_RATE_LIMITS.has(e.errorCode)) return { retry: true, reason: message };
  if (typeof e.status === "number") return byStatus(e.status, message);
  if (SDK_REFUSALS.has(String(e.name))) return { retry: false, reason: `refused: ${message}` };
  return { retry: true, reason: message };
}

function byStatus(status: number, reason: string, retryAfterMs?: number): NoticeFailure {
  if (status === 429) return { retry: true, retryAfterMs, reason };
  return { retry: status >= 500, reason: status >= 500 ? reason : `refused: ${reason}` };
}

function seconds(value: unknown): number | undefined {
  const n = Number(value);
  return Number.isFinite(n) && n > 0 ? n * 1000 : undefined;
}

// The error, or one it wraps, says the request may have reached the platform unanswered.
function unanswered(e: ErrorLike, depth = 0): boolean {
  if (UNANSWERED.has(String(e.name)) || UNANSWERED.has(String(e.code))) return true;
  if (depth > 4) return false;
  return [e.cause, e.error, e.original, e.originalError].some(
    (inner) => typeof inner === "object" && inner !== null && unanswered(inner as ErrorLike, depth + 1),
  );
}
