import { env } from "@/lib/env";

// The address rate limits are keyed on. On Vercel the platform sets x-real-ip itself. Elsewhere
// our server (scripts/server.ts) overwrites X-Forwarded-For with the socket address unless
// TRUST_PROXY=1, in which case the proxy in front appended the client it saw as the last entry;
// earlier entries are whatever the client claimed, so they are never used.
export function clientIp(headers: Headers): string {
  if (env.VERCEL) {
    const real = headers.get("x-real-ip")?.trim();
    if (real) return real;
  }
  const forwarded = headers.get("x-forwarded-for");
  const last = forwarded?.split(",").at(-1)?.trim();
  return last || "unknown";
}
