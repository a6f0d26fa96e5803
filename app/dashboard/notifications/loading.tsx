import styles from "../rentals/renter.module.css";
import notes from "./notifications.module.css";

export default function NotificationsLoading() {
  return (
    <main id="main" tabIndex={-1} className={styles.page} aria-busy="true">
      <div className={styles.header}>
        <h1>Notifications</h1>
      </div>
      <p role="status" className="hint">
        Loading your notifications…
      </p>
      <ul className={notes.notifications} aria-hidden="true">
        {Array.from({ length: 3 }, (_, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: placeholders of a fixed count, never reordered
          <li key={i} className={notes.notification}>
            <span className="skeleton skeleton-line" />
            <span className="skeleton skeleton-line skeleton-short" />
          </li>
        ))}
      </ul>
    </main>
  );
}
