import "server-only";
import { db } from "@/lib/db";

// Revoked rows are kept (revokedAt set) rather than deleted: the session list shows when and
// the cookie's hash can never be reissued to anyone.

/** Signs out one browser. */
export async function revokeSession(sessionId: string): Promise<void> {
  await db.session.updateMany({ where: { id: sessionId, revokedAt: null }, data: { revokedAt: new Date() } });
}

/** Signs the account out everywhere (every browser, this one included); returns how many rows it revoked. */
export async function revokeAllSessions(accountId: string): Promise<number> {
  const { count } = await db.session.updateMany({
    where: { accountId, revokedAt: null },
    data: { revokedAt: new Date() },
  });
  return count;
}
