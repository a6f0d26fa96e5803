import "server-only";
import { createHmac, randomInt } from "node:crypto";

// Requests as Slack sends them to the app's request URL, signed (v0) with the given signing
// secret: for the tests and the /dev/channels page (development only), which go through the real
// route and its real verification.

type SlackUser = { team: string; user: string; userName?: string };

function signed(
  url: string,
  secret: string,
  body: string,
  contentType: string,
  options: { timestamp?: number; retryNum?: number } = {},
): Request {
  const timestamp = String(options.timestamp ?? Math.floor(Date.now() / 1000));
  const signature = `v0=${createHmac("sha256", secret).update(`v0:${timestamp}:${body}`).digest("hex")}`;
  const headers: Record<string, string> = {
    "Content-Type": contentType,
    "X-Slack-Request-Timestamp": timestamp,
    "X-Slack-Signature": signature,
  };
  if (options.retryNum !== undefined)
    Object.assign(headers, { "X-Slack-Retry-Num": String(options.retryNum), "X-Slack-Retry-Reason": "http_timeout" });
  return new Request(url, { method: "POST", headers, body });
}

// Random starts, as for Telegram's update ids: files side by side must not claim each other's.
let nextTrigger = randomInt(1, 2 ** 47);

/** `/agent <text>` from the user; each invocation has its own trigger_id unless one is given (a delivery sent again). */
export function slackCommandRequest(
  url: string,
  secret: string,
  who: SlackUser,
  text: string,
  options: { timestamp?: number; triggerId?: string } = {},
): Request {
  const form = new URLSearchParams({
    command: "/agent",
    text,
    team_id: who.team,
    user_id: who.user,
    user_name: who.userName ?? who.user.toLowerCase(),
    channel_id: "C0GENERAL",
    response_url: "https://hooks.slack.com/commands/T/1/x",
    trigger_id: options.triggerId ?? `${nextTrigger++}.1000000000.${who.user.toLowerCase()}`,
  });
  return signed(url, secret, form.toString(), "application/x-www-form-urlencoded", options);
}

let nextEvent = randomInt(1, 2 ** 47);

// A message's ts, as Slack stamps it: the time in seconds, with a sequence after the point.
const messageTs = () => `${Math.floor(Date.now() / 1000)}.${String(nextEvent).padStart(6, "0").slice(-6)}`;

/** A direct message from the user to the app (Events API message.im). */
export function slackMessageRequest(
  url: string,
  secret: string,
  who: SlackUser,
  text: string,
  options: { eventId?: string; retryNum?: number; timestamp?: number; extra?: Record<string, unknown> } = {},
): Request {
  const payload = {
    type: "event_callback",
    team_id: who.team,
    event_id: options.eventId ?? `Ev${(nextEvent++).toString(36).toUpperCase()}`,
    event: { type: "message", channel_type: "im", channel: `D${who.user}`, user: who.user, text, ts: messageTs(), ...options.extra },
  };
  return signed(url, secret, JSON.stringify(payload), "application/json", options);
}

/** Slack's check of a new request URL. */
export function slackUrlVerificationRequest(url: string, secret: string, challenge: string): Request {
  return signed(url, secret, JSON.stringify({ type: "url_verification", challenge }), "application/json");
}
