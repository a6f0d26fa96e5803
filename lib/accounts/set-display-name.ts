import "server-only";
import { db } from "@/lib/db";

/** Sets (or with null removes) the name the marketplace shows beside the account's listings. */
export async function setDisplayName(accountId: string, displayName: string | null): Promise<void> {
  await db.account.update({ where: { id: accountId }, data: { displayName } });
}
