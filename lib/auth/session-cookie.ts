import "server-only";
import { appUrl, env } from "@/lib/env";

export const SESSION_COOKIE = "ars_session";
// Sessions last 30 days from sign-in (not sliding): a stolen cookie dies on schedule, and the
// cookie's Max-Age always tells the truth about when the row expires.
export const SESSION_TTL_SECONDS = 30 * 86_400;

const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

// Secure everywhere except development, tests and a plain-http localhost app URL (`npm start`
// on a laptop), where the browser would otherwise drop the cookie.
export function sessionCookieIsSecure(): boolean {
  if (env.NODE_ENV === "development" || env.NODE_ENV === "test") return false;
  const url = new URL(appUrl());
  return !(url.protocol === "http:" && LOCAL_HOSTS.has(url.hostname));
}

// HttpOnly: page scripts (and so XSS) cannot read it. SameSite=Lax: other sites' forms and
// fetches do not carry it on POST, while following a link to the app keeps the user signed in.
export function sessionCookie(token: string, maxAgeSeconds = SESSION_TTL_SECONDS): string {
  const parts = [`${SESSION_COOKIE}=${token}`, "Path=/", `Max-Age=${maxAgeSeconds}`, "HttpOnly", "SameSite=Lax"];
  if (sessionCookieIsSecure()) parts.push("Secure");
  return parts.join("; ");
}

// Tells the browser to drop the cookie (sign-out, or a cookie the server no longer honours).
export function clearedSessionCookie(): string {
  return sessionCookie("", 0);
}

// Next.js's cookies() store and anything else with the same `get`.
export type CookieReader = { get(name: string): { value: string } | undefined };

// The token from a request's Cookie header or from a cookie store; null when absent.
export function readSessionToken(source: Request | CookieReader): string | null {
  // Duck-typed: a Request from another realm (or Next's NextRequest) is still a request.
  if (!("headers" in source)) return source.get(SESSION_COOKIE)?.value ?? null;
  const header = source.headers.get("cookie");
  if (!header) return null;
  for (const pair of header.split(";")) {
    const eq = pair.indexOf("=");
    if (eq !== -1 && pair.slice(0, eq).trim() === SESSION_COOKIE) return pair.slice(eq + 1).trim();
  }
  return null;
}
