import "server-only";
import type { Redis } from "@upstash/redis";
import type { KnownCredentials } from "@/lib/ratelimit/known-credentials";
import { withTimeout } from "@/lib/ratelimit/with-timeout";

// Production: the known-credentials store in Upstash Redis, one key per digest with its expiry,
// shared by every instance. When Redis fails or is slow, a credential reads as unknown: its
// request then meets the failed-attempt budgets, which fail closed themselves.
export function createUpstashKnownCredentials(options: { redis: Redis; prefix: string; timeoutMs: number }): KnownCredentials {
  const { redis, prefix, timeoutMs } = options;
  const keyOf = (digest: string) => `${prefix}:${digest}`;

  // Never the digest nor Upstash's message (which quotes the command): the error's name only.
  const log = (what: string, cause: unknown) =>
    console.error(
      `[ratelimit] ${prefix}: ${what} ${cause === "timeout" ? "timed out" : cause instanceof Error ? `failed (${cause.name})` : "failed"}`,
    );

  async function run<T>(what: string, call: () => Promise<T>): Promise<T | undefined> {
    try {
      const r = await withTimeout(call(), timeoutMs);
      if (r === "timeout") log(what, "timeout");
      else return r;
    } catch (error) {
      log(what, error);
    }
    return undefined;
  }

  return {
    async has(digest) {
      return (await run("lookup", () => redis.exists(keyOf(digest)))) === 1;
    },
    async remember(digest, ttlMs) {
      if (!(ttlMs > 0)) return;
      await run("remember", () => redis.set(keyOf(digest), 1, { px: Math.ceil(ttlMs) }));
    },
    async forget(digest) {
      await run("forget", () => redis.del(keyOf(digest)));
    },
  };
}
