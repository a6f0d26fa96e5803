"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { requireSignedInAccount } from "@/lib/auth/signed-in-account";
import { markAllNotificationsRead, markNotificationRead } from "@/lib/notifications/mark-notifications-read";
import { limitAction } from "@/lib/ratelimit/limit-action";

// Server actions of /dashboard/notifications; the account always comes from the session cookie.
// Both spend from the account's action rate limit; these forms have no state to report into,
// so a refused one goes back to the page, which says so (?limited=1).
const LIMITED = "/dashboard/notifications?limited=1";

export async function markAllReadAction(): Promise<void> {
  const account = await requireSignedInAccount();
  if (await limitAction(account.id)) redirect(LIMITED);
  await markAllNotificationsRead(account.id);
  revalidatePath("/dashboard", "layout");
}

export async function markReadAction(notificationId: string): Promise<void> {
  const account = await requireSignedInAccount();
  if (await limitAction(account.id)) redirect(LIMITED);
  await markNotificationRead(account.id, notificationId);
  revalidatePath("/dashboard", "layout");
}
