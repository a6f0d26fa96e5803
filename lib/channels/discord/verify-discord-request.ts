import "server-only";
import { createPublicKey, verify } from "node:crypto";
import { env } from "@/lib/env";

/**
 * Discord's Ed25519 signature (X-Signature-Ed25519) over the timestamp (X-Signature-Timestamp)
 * followed by the raw body, against the application's public key (DISCORD_PUBLIC_KEY, hex).
 */
export function verifyDiscordRequest(headers: Headers, body: Buffer): boolean {
  const signature = headers.get("x-signature-ed25519") ?? "";
  const timestamp = headers.get("x-signature-timestamp") ?? "";
  if (!env.DISCORD_PUBLIC_KEY || !/^[0-9a-f]{128}$/i.test(signature) || !timestamp) return false;
  const key = createPublicKey({
    key: { kty: "OKP", crv: "Ed25519", x: Buffer.from(env.DISCORD_PUBLIC_KEY, "hex").toString("base64url") },
    format: "jwk",
  });
  return verify(null, Buffer.concat([Buffer.from(timestamp), body]), key, Buffer.from(signature, "hex"));
}
