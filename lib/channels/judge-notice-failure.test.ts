// What a failed chat notice's error means for a next try: the platforms' own error classes
// (grammY, @slack/web-api) and the Discord client's words. Sent at most once: a try the platform
// may have received is never repeated.
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

  it("a request that never left (connection refused, bot not configured) is tried again", () => {
    expect(judgeNoticeFailure(new HttpError("Network request for 'sendMessage' failed!", refused))).toMatchObject({ retry: true });
    expect(judgeNoticeFailure(new Error("TELEGRAM_BOT_TOKEN is not set"))).toMatchObject({ retry: true });
  });

  it("a request the platform may have received unanswered (timeout, dropped connection) is never repeated", () => {
    for (const error of [
      new Error("Request to 'sendMessage' timed out after 15 seconds"),
      new DOMException("The operation was aborted due to timeout", "TimeoutError"),
      new WebAPIRequestError(reset),
      new HttpError("Network request for 'sendMessage' failed!", reset),
    ]) {
      const judged = judgeNoticeFailure(error);
      expect(judged.retry).toBe(false);
      expect(judged.reason).toMatch(/^no answer from the platform \(.*\): not sent again, it may have arrived$/);
    }
  });
});
