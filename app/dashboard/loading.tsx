// Shown while a dashboard page loads: boxes in the sizes of what replaces them.
import styles from "./dashboard.module.css";

export default function DashboardLoading() {
  return (
    <main id="main" tabIndex={-1} aria-busy="true">
      <div className={styles.header}>
        <p role="status" style={{ margin: 0, fontSize: "1.25rem", fontWeight: 600 }}>
          Loading…
        </p>
      </div>
      <div className={styles.cards} aria-hidden="true">
        {Array.from({ length: 4 }, (_, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: placeholders of a fixed count, never reordered
          <span key={i} className={`skeleton ${styles.card}`} />
        ))}
      </div>
      <span className={`skeleton ${styles.skeletonBlock}`} aria-hidden="true" />
    </main>
  );
}
