import styles from "./renter.module.css";

// Shown while the rentals load: the page heading and card-sized boxes, so nothing jumps when
// the real cards replace them.
export default function RenterRentalsLoading() {
  return (
    <main id="main" tabIndex={-1} className={styles.page} aria-busy="true">
      <div className={styles.header}>
        <h1>My rentals</h1>
      </div>
      <p role="status" className="hint">
        Loading your rentals…
      </p>
      <ul className={styles.cards} aria-hidden="true">
        {Array.from({ length: 3 }, (_, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: placeholders of a fixed count, never reordered
          <li key={i} className={`${styles.card} ${styles.skeletonCard}`}>
            <span className="skeleton skeleton-line" />
            <span className="skeleton skeleton-line skeleton-short" />
            <span className="skeleton skeleton-block" />
          </li>
        ))}
      </ul>
    </main>
  );
}
