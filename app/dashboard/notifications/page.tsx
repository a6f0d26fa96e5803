// /dashboard/notifications — what the service told the signed-in account (so far: "your rental
// ended"), newest first, with "mark all read". The forms work without JavaScript.
import type { Metadata } from "next";
import Link from "next/link";
import { requireSignedInAccount } from "@/lib/auth/signed-in-account";
import { formatDateTime } from "@/lib/format/date-time";
import { listNotifications, NOTIFICATIONS_LIMIT } from "@/lib/notifications/list-notifications";
import dashboardStyles from "../dashboard.module.css";
import styles from "../rentals/renter.module.css";
import { markAllReadAction, markReadAction } from "./actions";
import notes from "./notifications.module.css";

export const metadata: Metadata = { title: "Notifications" };

const KIND_LABEL: Record<string, string> = {
  "rental-ended": "Rental ended",
  "rental-paid-out": "Rental paid out",
  "dispute-opened": "Dispute opened",
  "dispute-resolved": "Dispute decided",
};

export default async function NotificationsPage({ searchParams }: { searchParams?: Promise<{ limited?: string }> } = {}) {
  const account = await requireSignedInAccount();
  const [{ notifications, unread }, { limited }] = await Promise.all([
    listNotifications(account.id),
    searchParams ?? Promise.resolve({ limited: undefined }),
  ]);

  return (
    <main id="main" tabIndex={-1} className={styles.page}>
      <div className={styles.header}>
        <h1>Notifications</h1>
        {unread > 0 && (
          <form action={markAllReadAction}>
            <button type="submit" className="button">
              Mark all as read
            </button>
          </form>
        )}
      </div>
      {limited === "1" && (
        <p role="alert" className={dashboardStyles.alert}>
          Too many changes in a short time (at most 30 a minute), so nothing was marked as read. Please wait a few seconds and try again.
        </p>
      )}
      {notifications.length === 0 ? (
        <div className="empty">
          <h2>No notifications</h2>
          <p>When one of your rentals ends, a note appears here (and by e-mail if your account has an address).</p>
          <p>
            <Link href="/dashboard/rentals" className="button">
              My rentals
            </Link>
          </p>
        </div>
      ) : (
        <>
          <p className="muted" role="status">
            {unread === 0 ? "Everything is read." : unread === 1 ? "1 unread notification." : `${unread} unread notifications.`}
          </p>
          <ul className={notes.notifications} aria-label="Notifications, newest first">
            {notifications.map((n) => (
              <li key={n.id} className={notes.notification} data-unread={n.readAt === null}>
                <h2>
                  {n.readAt === null && <span className="visually-hidden">Unread: </span>}
                  {n.title}
                </h2>
                <p className={notes.meta}>
                  <span>{KIND_LABEL[n.kind] ?? "Notice"}</span>
                  <time dateTime={n.createdAt.toISOString()}>{formatDateTime(n.createdAt)}</time>
                </p>
                <p className={notes.notificationBody}>{n.body}</p>
                <div className={styles.actions}>
                  {n.link && (
                    <Link href={n.link.href} className="button button-quiet">
                      {n.link.label}
                      <span className="visually-hidden">: {n.title}</span>
                    </Link>
                  )}
                  {n.readAt === null && (
                    <form action={markReadAction.bind(null, n.id)}>
                      <button type="submit" className="button button-quiet">
                        Mark as read<span className="visually-hidden">: {n.title}</span>
                      </button>
                    </form>
                  )}
                </div>
              </li>
            ))}
          </ul>
          {notifications.length >= NOTIFICATIONS_LIMIT && (
            <p className="hint">Showing the {NOTIFICATIONS_LIMIT} most recent notifications.</p>
          )}
        </>
      )}
    </main>
  );
}
