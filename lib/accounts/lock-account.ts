import "server-only";
import type { Prisma } from "@/lib/generated/prisma/client";
import { ApiError } from "@/lib/http/api-error";

// Locks an account's row until the transaction ends, so that a count of its listings or keys
// still holds when the next one is inserted: parallel creations queue here instead of all
// counting 49 and all inserting. NO KEY UPDATE, so that rows merely referring to the account
// (sessions, notifications: FOR KEY SHARE) are not held up.
export async function lockAccount(tx: Prisma.TransactionClient, accountId: string): Promise<void> {
  const rows = await tx.$queryRaw<{ id: string }[]>`SELECT id::text AS id FROM accounts WHERE id = ${accountId}::uuid FOR NO KEY UPDATE`;
  if (rows.length === 0) throw new ApiError(404, "Account not found.");
}
