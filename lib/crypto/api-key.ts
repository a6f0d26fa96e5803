import "server-only";
import { createHash, randomBytes } from "node:crypto";

// Owner API keys: "rck_" + 22 random base62 characters (~131 bits) + a 6-character checksum of
// those 22, so a mistyped key is rejected without a database lookup. Only the SHA-256 of the
// whole key is stored; its first 12 characters are kept for display ("rck_AbCdEfGh").
const PREFIX = "rck_";
const BODY_LENGTH = 22;
const CHECKSUM_LENGTH = 6;
const DISPLAY_PREFIX_LENGTH = 12;
const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const WELL_FORMED = new RegExp(`^${PREFIX}[0-9A-Za-z]{${BODY_LENGTH + CHECKSUM_LENGTH}}$`);
// The largest multiple of 62 that fits a byte: bytes at or above it are redrawn, so every
// character is equally likely (a plain `byte % 62` would favour the first 8).
const UNBIASED_BELOW = 248;

function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const byte of randomBytes(length)) {
      if (byte < UNBIASED_BELOW && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

// A typo detector, not a secret: the slight bias of `% 62` here does not matter.
function checksum(body: string): string {
  const digest = createHash("sha256").update(body).digest();
  return Array.from(digest.subarray(0, CHECKSUM_LENGTH), (byte) => BASE62[byte % 62]).join("");
}

export function hashApiKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

export function generateApiKey(): { key: string; prefix: string; hash: string } {
  const body = randomBase62(BODY_LENGTH);
  const key = `${PREFIX}${body}${checksum(body)}`;
  return { key, prefix: key.slice(0, DISPLAY_PREFIX_LENGTH), hash: hashApiKey(key) };
}

export function isWellFormedApiKey(key: string): boolean {
  if (!WELL_FORMED.test(key)) return false;
  const body = key.slice(PREFIX.length, PREFIX.length + BODY_LENGTH);
  return key.slice(PREFIX.length + BODY_LENGTH) === checksum(body);
}
