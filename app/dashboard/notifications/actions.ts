"use server";
// Server actions of /dashboard/notifications, on the actions' wrapper (lib/actions/action.ts);
// the account always comes from the session cookie. Both spend from the account's action rate
// limit; these forms have no state to report into, so a refused one goes back to the page, which
// says so (?limited=1).
import { redirect } from "next/navigation";
import { plainAction } from "@/lib/actions/action";
import { markAllNotificationsRead, markNotificationRead } from "@/lib/notifications/mark-notifications-read";

const OPTIONS = {
  refused: () => redirect("/dashboard/notifications?limited=1"),
  revalidate: [["/dashboard", "layout"]] as ["/dashboard", "layout"][],
};

export const markAllReadAction = plainAction(OPTIONS, async ({ account }) => {
  await markAllNotificationsRead(account.id);
});

export const markReadAction = plainAction(OPTIONS, async ({ account }, notificationId: string) => {
  await markNotificationRead(account.id, notificationId);
});
