import { formatCount } from "@/lib/format/number";
import { plural } from "@/lib/format/plural";

/** What a failed call to an owner's webhook recorded: its HTTP status, or the safe fetch's `<code>: <detail>`. */
export type WebhookFailure = { statusCode: number | null; error: string | null };

/** The failure for a person: what happened, and what to do about it. */
export type WebhookFailureWords = { reason: string; nextStep: string };

const CHECK_IT_RUNS = "Check that your agent is running and reachable from the internet, then test again.";

/**
 * A failed webhook call in words, from what was recorded (lib/webhooks/check-webhook-health.ts,
 * lib/webhooks/safe-fetch.ts). The one home of these words: the dashboard's Test connection, the
 * delivery log, the offline e-mail and the owner API's connect answer all say the same. The raw
 * code stays where developers look for it (the form's detail, the API's `error`).
 */
export function describeWebhookFailure({ statusCode, error }: WebhookFailure): WebhookFailureWords {
  if (statusCode !== null && (statusCode < 200 || statusCode >= 300)) return describeStatus(statusCode);
  if (!error) return { reason: "Your webhook did not answer.", nextStep: CHECK_IT_RUNS };
  const [code, detail = ""] = error.split(/: (.*)/s);
  switch (code) {
    case "timeout":
      return {
        reason: `Your webhook did not answer within ${within(detail)}.`,
        nextStep: "Check that your agent is running and answers at once (a health check needs no model call), then test again.",
      };
    case "unreachable":
      return describeNetworkError(detail);
    case "blocked":
      // One sentence for a name that does not resolve and for one that resolves to a refused
      // address (docs/webhooks.md): told apart, the test would map the service's internal names.
      return {
        reason: "The host name does not exist, or it points to an address the service may not call (a private, local or reserved one).",
        nextStep: "Check the host name for typos, and use an address that is reachable from the internet.",
      };
    case "invalid_url":
      return describeUnusableUrl(detail);
    case "too_large":
      return {
        reason: `Your webhook's reply was larger than ${size(detail)}, the most the service reads.`,
        nextStep: "Answer with a short body: the health check ignores it.",
      };
    case "internal":
      return {
        reason: "The service could not send the call: a fault on our side, not in your webhook.",
        nextStep: "Enter the webhook's URL and token again and press Test connection; if it keeps failing, contact support.",
      };
    default:
      return { reason: `Your webhook did not answer as expected (${error}).`, nextStep: CHECK_IT_RUNS };
  }
}

function describeStatus(status: number): WebhookFailureWords {
  if (status >= 300 && status < 400) {
    return {
      reason: `Your webhook answered with a redirect (HTTP ${status}); redirects are not followed.`,
      nextStep: "Enter the address it redirects to (often the https:// one, or the path with or without a final /).",
    };
  }
  if (status === 401 || status === 403) {
    return {
      reason: `Your webhook refused the call (HTTP ${status}).`,
      nextStep: "Check that your agent expects exactly the token entered here, sent as Authorization: Bearer <token>.",
    };
  }
  if (status === 404 || status === 405) {
    return {
      reason: `Nothing at that address takes the call (HTTP ${status}).`,
      nextStep: "Check the URL's path (conventionally /hooks/agent) and that it accepts POST.",
    };
  }
  if (status >= 500) {
    return {
      reason: `Your webhook answered HTTP ${status}: an error in your agent's server.`,
      nextStep: "Look in your agent's logs for the error, fix it, then test again.",
    };
  }
  return {
    reason: `Your webhook answered HTTP ${status}; only a 2xx status counts as an answer.`,
    nextStep: "Make it answer 2xx (the health check is a POST with the header X-Health-Check: true).",
  };
}

// Node's error codes (the safe fetch keeps only the code: messages can quote the host).
function describeNetworkError(code: string): WebhookFailureWords {
  if (code === "ENOTFOUND") {
    return { reason: "The host name does not exist.", nextStep: "Check the host name in the URL for typos." };
  }
  if (code === "EAI_AGAIN") {
    return {
      reason: "The host name could not be looked up: the name service did not answer.",
      nextStep: "Check the host name in the URL; if it is right, test again in a minute.",
    };
  }
  if (code === "ECONNREFUSED") {
    return {
      reason: "The connection was refused: nothing is listening at that address and port.",
      nextStep: "Start your agent, or check the host and port in the URL.",
    };
  }
  if (code === "ECONNRESET" || code === "EPIPE" || code === "connection lost") {
    return {
      reason: "The connection was closed before your webhook answered.",
      nextStep: "Look in your agent's logs: it may have stopped or closed the connection. Then test again.",
    };
  }
  if (["EHOSTUNREACH", "ENETUNREACH", "EHOSTDOWN", "ETIMEDOUT"].includes(code)) {
    return {
      reason: "The server could not be reached over the network.",
      nextStep: "Check that it is up and that its firewall lets calls from the internet through, then test again.",
    };
  }
  if (/^(?:CERT_|ERR_TLS_|ERR_SSL_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_|EPROTO$)/.test(code)) {
    return {
      reason: "The secure (https) connection failed: the server's certificate was not accepted, or it does not speak https at that port.",
      nextStep: "Use a certificate from a public authority (Let's Encrypt, for instance) that is valid for this host name and not expired.",
    };
  }
  return { reason: `Your webhook could not be reached (network error ${code || "without a code"}).`, nextStep: CHECK_IT_RUNS };
}

function describeUnusableUrl(detail: string): WebhookFailureWords {
  if (detail === "URL must use https") {
    return { reason: "The service calls only https URLs.", nextStep: "Enter the https:// address of your webhook." };
  }
  if (detail === "URL must not contain credentials") {
    return {
      reason: "The URL holds a user name or password, which the service never sends.",
      nextStep: "Remove them from the URL: the webhook token is sent as the Authorization header.",
    };
  }
  return { reason: `The webhook URL cannot be used (${detail || "not a URL"}).`, nextStep: "Enter the webhook's full https URL." };
}

// "no complete reply within 10000 ms" → "10 seconds".
function within(detail: string): string {
  const ms = Number(/(\d+) ms/.exec(detail)?.[1]);
  if (!Number.isFinite(ms)) return "the time allowed";
  return ms % 1000 === 0 ? plural(ms / 1000, "second") : `${formatCount(ms)} ms`;
}

// "reply exceeds 65536 bytes" → "64 KiB".
function size(detail: string): string {
  const bytes = Number(/(\d+) bytes/.exec(detail)?.[1]);
  if (!Number.isFinite(bytes)) return "the limit";
  return bytes % 1024 === 0 ? `${formatCount(bytes / 1024)} KiB` : plural(bytes, "byte");
}
