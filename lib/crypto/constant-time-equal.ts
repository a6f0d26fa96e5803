import "server-only";
import { createHash, timingSafeEqual } from "node:crypto";

// Compares secrets (tokens, cron secrets) without leaking, through timing, where they first
// differ; comparing fixed-size digests means their lengths do not leak either.
export function constantTimeEqual(a: string, b: string): boolean {
  const digest = (s: string) => createHash("sha256").update(s, "utf8").digest();
  return timingSafeEqual(digest(a), digest(b));
}
