import { describe, expect, it } from "vitest";
import { describeWebhookFailure } from "@/lib/format/webhook-failure";

const network = (error: string) => describeWebhookFailure({ statusCode: null, error });
const status = (statusCode: number) => describeWebhookFailure({ statusCode, error: `HTTP ${statusCode}` });

describe("describeWebhookFailure", () => {
  it("a host name that does not exist and an address the service may not call read the same when private hosts are refused", () => {
    // safe-fetch answers both with this one code (docs/webhooks.md, "Where webhooks may point").
    expect(network("blocked: host does not resolve to a public address")).toEqual({
      reason: "The host name does not exist, or it points to an address the service may not call (a private, local or reserved one).",
      nextStep: "Check the host name for typos, and use an address that is reachable from the internet.",
    });
  });

  it("names each network failure in words", () => {
    expect(network("unreachable: ENOTFOUND")).toEqual({
      reason: "The host name does not exist.",
      nextStep: "Check the host name in the URL for typos.",
    });
    expect(network("unreachable: EAI_AGAIN").reason).toBe("The host name could not be looked up: the name service did not answer.");
    expect(network("unreachable: ECONNREFUSED")).toEqual({
      reason: "The connection was refused: nothing is listening at that address and port.",
      nextStep: "Start your agent, or check the host and port in the URL.",
    });
    for (const code of ["ECONNRESET", "EPIPE", "connection lost"]) {
      expect(network(`unreachable: ${code}`).reason, code).toBe("The connection was closed before your webhook answered.");
    }
    for (const code of ["EHOSTUNREACH", "ENETUNREACH", "EHOSTDOWN", "ETIMEDOUT"]) {
      expect(network(`unreachable: ${code}`).reason, code).toBe("The server could not be reached over the network.");
    }
    for (const code of [
      "CERT_HAS_EXPIRED",
      "DEPTH_ZERO_SELF_SIGNED_CERT",
      "ERR_TLS_CERT_ALTNAME_INVALID",
      "EPROTO",
      "ERR_SSL_WRONG_VERSION_NUMBER",
    ]) {
      expect(network(`unreachable: ${code}`).reason, code).toMatch(/^The secure \(https\) connection failed/);
    }
    expect(network("unreachable: EWHATEVER")).toEqual({
      reason: "Your webhook could not be reached (network error EWHATEVER).",
      nextStep: "Check that your agent is running and reachable from the internet, then test again.",
    });
  });

  it("says how long it waited, and how large a reply may be", () => {
    expect(network("timeout: no complete reply within 10000 ms")).toEqual({
      reason: "Your webhook did not answer within 10 seconds.",
      nextStep: "Check that your agent is running and answers at once (a health check needs no model call), then test again.",
    });
    expect(network("timeout: no complete reply within 1500 ms").reason).toBe("Your webhook did not answer within 1,500 ms.");
    expect(network("timeout: no complete reply within 1000 ms").reason).toBe("Your webhook did not answer within 1 second.");
    expect(network("too_large: reply exceeds 65536 bytes")).toEqual({
      reason: "Your webhook's reply was larger than 64 KiB, the most the service reads.",
      nextStep: "Answer with a short body: the health check ignores it.",
    });
  });

  it("puts a non-2xx status in words, with what usually causes it", () => {
    expect(status(500)).toEqual({
      reason: "Your webhook answered HTTP 500: an error in your agent's server.",
      nextStep: "Look in your agent's logs for the error, fix it, then test again.",
    });
    expect(status(401)).toEqual({
      reason: "Your webhook refused the call (HTTP 401).",
      nextStep: "Check that your agent expects exactly the token entered here, sent as Authorization: Bearer <token>.",
    });
    expect(status(403).reason).toBe("Your webhook refused the call (HTTP 403).");
    expect(status(404)).toEqual({
      reason: "Nothing at that address takes the call (HTTP 404).",
      nextStep: "Check the URL's path (conventionally /hooks/agent) and that it accepts POST.",
    });
    expect(status(307)).toEqual({
      reason: "Your webhook answered with a redirect (HTTP 307); redirects are not followed.",
      nextStep: "Enter the address it redirects to (often the https:// one, or the path with or without a final /).",
    });
    expect(status(418).reason).toBe("Your webhook answered HTTP 418; only a 2xx status counts as an answer.");
  });

  it("explains an unusable URL and the service's own fault", () => {
    expect(network("invalid_url: URL must use https")).toEqual({
      reason: "The service calls only https URLs.",
      nextStep: "Enter the https:// address of your webhook.",
    });
    expect(network("invalid_url: URL must not contain credentials").reason).toBe(
      "The URL holds a user name or password, which the service never sends.",
    );
    expect(network("invalid_url: not a valid URL").reason).toBe("The webhook URL cannot be used (not a valid URL).");
    expect(network("internal: the stored webhook URL and token could not be read; connect the webhook again")).toEqual({
      reason: "The service could not send the call: a fault on our side, not in your webhook.",
      nextStep: "Enter the webhook's URL and token again and press Test connection; if it keeps failing, contact support.",
    });
  });

  it("never drops a code it does not know, and copes with nothing recorded", () => {
    expect(network("strange: thing").reason).toBe("Your webhook did not answer as expected (strange: thing).");
    expect(describeWebhookFailure({ statusCode: null, error: null }).reason).toBe("Your webhook did not answer.");
  });
});
