import "server-only";
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";
import { currentAccount, type SignedInAccount } from "@/lib/auth/current-account";
import { readSignInNext, signInPath } from "@/lib/auth/sign-in-path";
import { REQUEST_PATH_HEADER } from "@/lib/http/request-path";

/** Server components and server actions: the signed-in account, or null. Looked up once per
 * request however many components ask (the site header and the dashboard layout both do). */
export const signedInAccount = cache(async (): Promise<SignedInAccount | null> => currentAccount(await cookies()));

/**
 * Signed-in pages (/dashboard…) and their actions: the account, or a redirect to
 * /sign-in?next=<the page asked for>, so a link from an e-mail still lands on its page after the
 * sign-in. The layout and the page both ask (they render in parallel), so both send to the same place.
 */
export async function requireSignedInAccount(): Promise<SignedInAccount> {
  const account = await signedInAccount();
  if (!account) redirect(signInPath({ next: readSignInNext((await headers()).get(REQUEST_PATH_HEADER)) }));
  return account;
}
