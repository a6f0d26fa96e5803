import styles from "../renter.module.css";

// The rental page's boxes at their final sizes while it loads.
export default function RenterRentalLoading() {
  return (
    <main id="main" tabIndex={-1} className={styles.page} aria-busy="true">
      <p className="back-link" style={{ margin: "0 0 0.5rem" }}>
        <span className="skeleton skeleton-line skeleton-short" />
      </p>
      <div className={styles.header}>
        <span className="skeleton skeleton-heading" />
      </div>
      <p role="status" className="hint">
        Loading the rental…
      </p>
      <div className={`detail ${styles.besideNav}`} aria-hidden="true">
        <div className={`surface ${styles.panel}`}>
          <span className="skeleton skeleton-line skeleton-short" />
          <span className="skeleton skeleton-block" style={{ height: "12rem" }} />
          <span className="skeleton skeleton-block" style={{ height: "5.5rem" }} />
        </div>
        <div className={styles.side}>
          <div className={`surface ${styles.panel}`}>
            <span className="skeleton skeleton-line skeleton-short" />
            <span className="skeleton skeleton-block" />
          </div>
          <div className={`surface ${styles.panel}`}>
            <span className="skeleton skeleton-line skeleton-short" />
            <span className="skeleton skeleton-block" />
          </div>
        </div>
      </div>
    </main>
  );
}
