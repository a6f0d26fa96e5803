import styles from "../dashboard.module.css";

// How many notifications are unread, beside the Notifications link: a number to see ("99+" past
// 99) and the exact count in words for screen readers. Nothing when everything is read.
export function UnreadBadge({ count }: { count: number }) {
  if (count <= 0) return null;
  return (
    <>
      <span className={styles.count} aria-hidden="true">
        {count > 99 ? "99+" : count}
      </span>
      <span className="visually-hidden"> ({count} unread)</span>
    </>
  );
}
