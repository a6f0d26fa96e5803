import "server-only";
import { db } from "@/lib/db";

/** Marks every unread notification of the account read; returns how many changed. */
export async function markAllNotificationsRead(accountId: string, now: Date = new Date()): Promise<number> {
  const { count } = await db.notification.updateMany({ where: { accountId, readAt: null }, data: { readAt: now } });
  return count;
}

/** Marks one notification read if it is the account's (someone else's id changes nothing). */
export async function markNotificationRead(accountId: string, notificationId: string, now: Date = new Date()): Promise<boolean> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(notificationId)) return false;
  const { count } = await db.notification.updateMany({
    where: { id: notificationId, accountId, readAt: null },
    data: { readAt: now },
  });
  return count === 1;
}
