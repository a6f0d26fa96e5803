import "server-only";
import { db } from "@/lib/db";

export type AccountNotification = {
  id: string;
  kind: string;
  title: string;
  body: string;
  createdAt: Date;
  readAt: Date | null;
  /**
   * Where the notification leads: the renter's rental page, or, for the agent's owner, the listing
   * (its disputes): an owner never gets a link holding the rental's id, whose prefix is the code.
   */
  link: { href: string; label: string } | null;
};

export const NOTIFICATIONS_LIMIT = 100;

/** An account's notifications, newest first (the accountId, createdAt index), and how many are unread. */
export async function listNotifications(
  accountId: string,
  limit = NOTIFICATIONS_LIMIT,
): Promise<{ notifications: AccountNotification[]; unread: number }> {
  const [notifications, unread] = await Promise.all([
    db.notification.findMany({
      where: { accountId },
      orderBy: [{ createdAt: "desc" }, { id: "asc" }],
      take: limit,
      select: {
        id: true,
        kind: true,
        rentalId: true,
        title: true,
        body: true,
        createdAt: true,
        readAt: true,
        rental: { select: { agentId: true, agent: { select: { ownerId: true } } } },
      },
    }),
    countUnreadNotifications(accountId),
  ]);
  return {
    notifications: notifications.map(({ rental, rentalId, ...n }) => ({
      ...n,
      link: !rental
        ? null
        : rental.agent.ownerId === accountId
          ? n.kind.startsWith("dispute-")
            ? { href: `/dashboard/agents/${rental.agentId}#disputes`, label: "View the dispute" }
            : { href: `/dashboard/agents/${rental.agentId}`, label: "View the listing" }
          : { href: `/dashboard/rentals/${rentalId}`, label: "View the rental" },
    })),
    unread,
  };
}

export async function countUnreadNotifications(accountId: string): Promise<number> {
  return db.notification.count({ where: { accountId, readAt: null } });
}
