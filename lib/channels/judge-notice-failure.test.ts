// What a failed chat notice's error means for a next try: the platforms' own error classes
// (grammY, @slack/web-api) and the Discord client's words. Sent at most once: a try the platform
// may have received is never repeated.
import { AdapterRateLimitError, NetworkError, PermissionError } from "@chat-adapter/shared";
import { WhatsAppApiError } from "@chat-adapter/whatsapp";
import { WebAPIPlatformError, WebAPIRateLimitedError, WebAPIRequestError } from "@slack/web-api";
import { GrammyError, HttpError } from "grammy";
import { describe, expect, it } from "vitest";
import { judgeNoticeFailure } from "@/lib/channels/judge-notice-failure";

const telegram = (error_code: number, description: string, parameters = {}) =>
  new GrammyError("Call to 'sendMessage' failed!", { ok: false, error_code, description, parameters }, "sendMessage", {});
const refused = Object.assign(new TypeError("fetch failed"), {
  cause: Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }),
});
const reset = Object.assign(new TypeError("fetch failed"), {
  cause: Object.assign(new Error("other side closed"), { code: "UND_ERR_SOCKET" }),
});

describe("judgeNoticeFailure", () => {
  it("Telegram: a 429 waits its retry_after, a 5xx is tried again, a refusal of the chat is final", () => {
    expect(judgeNoticeFailure(telegram(429, "Too Many Requests: retry after 7", { retry_after: 7 }))).toEqual({
      retry: true,
      retryAfterMs: 7_000,
      reason: "Telegram: 429 Too Many Requests: retry after 7",
    });
    expect(judgeNoticeFailure(telegram(502, "Bad Gateway"))).toEqual({ retry: true, reason: "Telegram: 502 Bad Gateway" });
    expect(judgeNoticeFailure(telegram(403, "Forbidden: bot was blocked by the user"))).toEqual({
      retry: false,
      reason: "refused: Telegram: 403 Forbidden: bot was blocked by the user",
    });
  });

  it("Slack: rate limited waits its Retry-After; an API error (channel_not_found) is final", () => {
    const limited = new WebAPIRateLimitedError(30);
    expect(judgeNoticeFailure(limited)).toEqual({ retry: true, retryAfterMs: 30_000, reason: "Slack: rate limited" });
    const platform = new WebAPIPlatformError({ ok: false, error: "channel_not_found" });
    expect(judgeNoticeFailure(platform)).toEqual({ retry: false, reason: "Slack refused it: channel_not_found" });
  });

  it("Discord: the client's HTTP status decides", () => {
    expect(judgeNoticeFailure(new Error("Discord answered POST /users/@me/channels with HTTP 403"))).toMatchObject({ retry: false });
    expect(judgeNoticeFailure(new Error("Discord answered POST /channels/1/messages with HTTP 429"))).toMatchObject({ retry: true });
    expect(judgeNoticeFailure(new Error("Discord answered POST /channels/1/messages with HTTP 503"))).toMatchObject({ retry: true });
  });

  it("a bot on the Chat SDK: its adapter's error classes and Meta's codes decide", () => {
    const meta = (status: number, code: number, text: string) =>
      new WhatsAppApiError("WhatsApp API error", status, JSON.stringify({ error: { message: text, type: "OAuthException", code } }));
    // Outside the 24-hour window Meta refuses a free-form message for good.
    expect(judgeNoticeFailure(meta(400, 131047, "Re-engagement message"))).toEqual({
      retry: false,
      reason: "refused: WhatsApp API error: 400 Re-engagement message",
    });
    expect(judgeNoticeFailure(meta(400, 130429, "Rate limit hit"))).toMatchObject({ retry: true });
    expect(judgeNoticeFailure(meta(503, 1, "Service temporarily unavailable"))).toMatchObject({ retry: true });
    expect(judgeNoticeFailure(new AdapterRateLimitError("telegram", 9))).toMatchObject({ retry: true, retryAfterMs: 9_000 });
    expect(judgeNoticeFailure(new PermissionError("telegram", "sendMessage"))).toMatchObject({ retry: false });
    expect(judgeNoticeFailure(new NetworkError("telegram", "Bad Gateway (status 502, error 502)"))).toMatchObject({ retry: true });
    // The adapter's network error around a dropped connection: it may have arrived.
    expect(judgeNoticeFailure(new NetworkError("telegram", "Network error", reset))).toMatchObject({ retry: false });
  });

  it("a request that never left (connection refused, bot not configured) is tried again", () => {
    expect(judgeNoticeFailure(new HttpError("Network request for 'sendMessage' failed!", refused))).toMatchObject({ retry: true });
    expect(judgeNoticeFailure(new Error("TELEGRAM_BOT_TOKEN is not set"))).toMatchObject({ retry: true });
  });

  it("a request the platform may have received unanswered (timeout, dropped connection) is never repeated", () => {
    for (const error of [
      new Error("Request to 'sendMessage' timed out after 15 seconds"),
      new DOMException("The operation was aborted due to timeout", "TimeoutError"),
      new WebAPIRequestError(reset),
      new WebAPIRequestError(Object.assign(new Error("timeout of 15000ms exceeded"), { code: "ECONNABORTED" })),
      new HttpError("Network request for 'sendMessage' failed!", reset),
    ]) {
      const judged = judgeNoticeFailure(error);
      expect(judged.retry).toBe(false);
      expect(judged.reason).toMatch(/^no answer from the platform \(.*\): not sent again, it may have arrived$/);
    }
  });
});
