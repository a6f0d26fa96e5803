import "server-only";
import { newAuthToken } from "@/lib/auth/auth-token";
import { SESSION_TTL_SECONDS, sessionCookie } from "@/lib/auth/session-cookie";
import { db } from "@/lib/db";

export type SignInMethod = "siwe" | "email";

const USER_AGENT_MAX = 512;

// Starts a session for the account and returns the Set-Cookie value that carries its token.
// The token exists only in that header; the row keeps its SHA-256. Its times all come from `now`
// (not partly from the database's clock), so it lasts exactly SESSION_TTL_SECONDS.
export async function createSession(accountId: string, options: { method: SignInMethod; userAgent?: string | null; now?: Date }) {
  const { token, hash } = newAuthToken();
  const now = options.now ?? new Date();
  const session = await db.session.create({
    data: {
      tokenHash: hash,
      accountId,
      method: options.method,
      createdAt: now,
      lastSeenAt: now,
      expiresAt: new Date(now.getTime() + SESSION_TTL_SECONDS * 1000),
      userAgent: options.userAgent ? options.userAgent.slice(0, USER_AGENT_MAX) : null,
    },
    select: { id: true, expiresAt: true },
  });
  return { session, cookie: sessionCookie(token) };
}
