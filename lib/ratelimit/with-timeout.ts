import "server-only";

// Races a Redis call against a deadline: Upstash's client has no timeout of its own (only
// Ratelimit.limit has one), and a limiter that waits forever fails nobody closed.
export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T | "timeout"> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<"timeout">((resolve) => {
    timer = setTimeout(resolve, ms, "timeout");
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
