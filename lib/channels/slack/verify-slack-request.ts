import "server-only";
import { createHmac } from "node:crypto";
import { constantTimeEqual } from "@/lib/crypto/constant-time-equal";
import { env } from "@/lib/env";

// Slack refuses to rely on requests older than 5 minutes (replays); so do we.
const MAX_AGE_SECONDS = 300;

/**
 * Slack's v0 signature: HMAC-SHA256 with the signing secret over "v0:<timestamp>:<raw body>",
 * sent as X-Slack-Signature "v0=<hex>", and a timestamp within 5 minutes of now.
 */
export function verifySlackRequest(headers: Headers, body: Buffer, now: Date): boolean {
  const secret = env.SLACK_SIGNING_SECRET;
  const timestamp = headers.get("x-slack-request-timestamp") ?? "";
  const signature = headers.get("x-slack-signature") ?? "";
  if (!secret || !/^\d{1,12}$/.test(timestamp)) return false;
  if (Math.abs(now.getTime() / 1000 - Number(timestamp)) > MAX_AGE_SECONDS) return false;
  const expected = `v0=${createHmac("sha256", secret).update(`v0:${timestamp}:`).update(body).digest("hex")}`;
  return constantTimeEqual(signature, expected);
}
