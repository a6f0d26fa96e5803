import "server-only";
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";
import { currentAccount, type SignedInAccount } from "@/lib/auth/current-account";

/** Server components and server actions: the signed-in account, or null. Looked up once per
 * request however many components ask (the site header and the dashboard layout both do). */
export const signedInAccount = cache(async (): Promise<SignedInAccount | null> => currentAccount(await cookies()));

/** Server components of signed-in pages (/dashboard…): the account, or a redirect to /sign-in. */
export async function requireSignedInAccount(): Promise<SignedInAccount> {
  const account = await signedInAccount();
  if (!account) redirect("/sign-in");
  return account;
}
