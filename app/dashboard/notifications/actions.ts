"use server";

import { revalidatePath } from "next/cache";
import { requireSignedInAccount } from "@/lib/auth/signed-in-account";
import { markAllNotificationsRead, markNotificationRead } from "@/lib/notifications/mark-notifications-read";

// Server actions of /dashboard/notifications; the account always comes from the session cookie.
export async function markAllReadAction(): Promise<void> {
  const account = await requireSignedInAccount();
  await markAllNotificationsRead(account.id);
  revalidatePath("/dashboard", "layout");
}

export async function markReadAction(notificationId: string): Promise<void> {
  const account = await requireSignedInAccount();
  await markNotificationRead(account.id, notificationId);
  revalidatePath("/dashboard", "layout");
}
