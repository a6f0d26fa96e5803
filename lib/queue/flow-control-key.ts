import "server-only";
import { createHmac } from "node:crypto";
import { deriveSecretKey } from "@/lib/crypto/secret-box";

let key: Buffer | undefined;

/**
 * QStash's flow-control key for an owner's webhook host: a keyed hash, so the hosts of owners'
 * webhooks (stored encrypted here) are not handed to Upstash in the clear. The same host always
 * gets the same key (until the keyring's first key changes), so every batch of one host shares it.
 */
export function flowControlKey(host: string): string {
  key ??= deriveSecretKey("queue-flow-control-keys");
  return `host-${createHmac("sha256", key).update(host).digest("hex").slice(0, 32)}`;
}
