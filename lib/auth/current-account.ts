import "server-only";
import { hashAuthToken, isWellFormedAuthToken } from "@/lib/auth/auth-token";
import type { SignInMethod } from "@/lib/auth/create-session";
import { type CookieReader, clearedSessionCookie, readSessionToken } from "@/lib/auth/session-cookie";
import { db } from "@/lib/db";
import { ApiError } from "@/lib/http/api-error";

export type SignedInAccount = {
  id: string;
  email: string | null;
  walletAddress: string | null;
  displayName: string | null;
  createdAt: Date;
  /** How this browser signed in: only a wallet sign-in ("siwe") proves it holds `walletAddress`. */
  signedInWith: SignInMethod;
};
export type CurrentSession = { session: { id: string; accountId: string; expiresAt: Date }; account: SignedInAccount };

// lastSeenAt is written at most this often per session, so reading a page is not a write each time.
const TOUCH_EVERY_MS = 5 * 60_000;

/**
 * The session behind the `ars_session` cookie, or null when there is none or it is unknown,
 * revoked or expired. Pass the Request in a route handler, or `await cookies()` (next/headers)
 * in a server component.
 */
export async function currentSession(source: Request | CookieReader, now: number = Date.now()): Promise<CurrentSession | null> {
  const token = readSessionToken(source);
  if (!isWellFormedAuthToken(token)) return null;
  // Looked up by hash: the secret itself is never compared, so timing says nothing about it.
  const row = await db.session.findUnique({
    where: { tokenHash: hashAuthToken(token) },
    select: {
      id: true,
      accountId: true,
      expiresAt: true,
      revokedAt: true,
      lastSeenAt: true,
      method: true,
      account: { select: { id: true, email: true, walletAddress: true, displayName: true, createdAt: true } },
    },
  });
  if (!row || row.revokedAt || row.expiresAt.getTime() <= now) return null;
  if (now - row.lastSeenAt.getTime() > TOUCH_EVERY_MS) {
    await db.session.updateMany({
      where: { id: row.id, lastSeenAt: row.lastSeenAt },
      data: { lastSeenAt: new Date(now) },
    });
  }
  return {
    session: { id: row.id, accountId: row.accountId, expiresAt: row.expiresAt },
    account: { ...row.account, signedInWith: row.method === "siwe" ? "siwe" : "email" },
  };
}

/** The signed-in account, or null. */
export async function currentAccount(source: Request | CookieReader): Promise<SignedInAccount | null> {
  return (await currentSession(source))?.account ?? null;
}

/** For route handlers: `route({ auth: requireSession }, …)`; 401 in words when not signed in. */
export async function requireSession(req: Request): Promise<CurrentSession> {
  const current = await currentSession(req);
  if (current) return current;
  // A cookie the server no longer honours (signed out elsewhere, expired) is cleared as well.
  const headers: Record<string, string> = readSessionToken(req) !== null ? { "Set-Cookie": clearedSessionCookie() } : {};
  throw new ApiError(401, "You are not signed in, or your session has ended. Sign in again at /sign-in.", headers);
}
