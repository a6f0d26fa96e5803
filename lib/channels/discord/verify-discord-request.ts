import "server-only";
import { createPublicKey, verify } from "node:crypto";
import { env } from "@/lib/env";

// Discord signs the time it sent an interaction but never checks it for us: without a limit, a
// captured interaction could be replayed for ever. 5 minutes, as Slack's own rule; a time ahead of
// ours only by a clock's drift (a minute), so a future stamp cannot stretch the window.
const MAX_AGE_SECONDS = 300;
const MAX_SKEW_SECONDS = 60;

/**
 * Discord's Ed25519 signature (X-Signature-Ed25519) over the timestamp (X-Signature-Timestamp)
 * followed by the raw body, against the application's public key (DISCORD_PUBLIC_KEY, hex); then
 * the signed timestamp (Unix seconds) at most 5 minutes before `now` and a minute after it.
 */
export function verifyDiscordRequest(headers: Headers, body: Buffer, now: Date): boolean {
  const signature = headers.get("x-signature-ed25519") ?? "";
  const timestamp = headers.get("x-signature-timestamp") ?? "";
  if (!env.DISCORD_PUBLIC_KEY || !/^[0-9a-f]{128}$/i.test(signature) || !timestamp) return false;
  const key = createPublicKey({
    key: { kty: "OKP", crv: "Ed25519", x: Buffer.from(env.DISCORD_PUBLIC_KEY, "hex").toString("base64url") },
    format: "jwk",
  });
  if (!verify(null, Buffer.concat([Buffer.from(timestamp), body]), key, Buffer.from(signature, "hex"))) return false;
  if (!/^\d{1,12}$/.test(timestamp)) return false;
  const age = now.getTime() / 1000 - Number(timestamp);
  return age <= MAX_AGE_SECONDS && age >= -MAX_SKEW_SECONDS;
}
