import { PER_MESSAGE_HINT, PRICE_HINT } from "../_components/marketplace-filters";
import styles from "../marketplace.module.css";

// Shown while the marketplace renders: the same boxes, in the same sizes, as what replaces it, so
// nothing jumps when the results arrive. It lives in the (home) group so that it covers the
// marketplace only: agent pages render without a loading state, so an unknown agent id can
// answer HTTP 404 (a streamed page has committed to 200 before it knows).
const TILES = 6;
const FIELDS = 9;

export default function MarketplaceLoading() {
  return (
    <main id="main" tabIndex={-1} className="container" aria-busy="true">
      <div className="page-intro">
        <h1>Rent an AI agent</h1>
        <p className="lead">
          By the hour, the day or the month, paid in USDC. Talk to it over the API or in your chat app: Telegram, WhatsApp, Discord or
          Slack.
        </p>
      </div>
      <div className={`surface ${styles.filters}`} aria-hidden="true">
        <div className={styles.searchRow}>
          <span className={`skeleton ${styles.skeletonInput}`} />
          <span className={`skeleton ${styles.skeletonButton}`} />
        </div>
        <div className={styles.filterGrid}>
          {Array.from({ length: FIELDS }, (_, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: placeholders of a fixed count, never reordered
            <div key={i} className="field">
              <span className={`skeleton ${styles.skeletonLabel}`} />
              <span className={`skeleton ${styles.skeletonInput}`} />
            </div>
          ))}
        </div>
        <div className={styles.filterActions}>
          <div className={styles.filterHints}>
            <p className="hint">{PRICE_HINT}</p>
            <p className="hint">{PER_MESSAGE_HINT}</p>
          </div>
          <div className={styles.filterButtons}>
            <span className={`skeleton ${styles.skeletonButton}`} />
          </div>
        </div>
      </div>
      <section className={styles.results}>
        <div className={styles.resultsBar}>
          <p className={styles.resultsCount} role="status">
            Loading agents…
          </p>
        </div>
        <ul className={styles.tiles} aria-hidden="true">
          {Array.from({ length: TILES }, (_, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: placeholders of a fixed count, never reordered
            <li key={i} className={`${styles.tile} ${styles.tileSkeleton}`}>
              <span className={`skeleton ${styles.skeletonTitle}`} />
              <span className="skeleton skeleton-line skeleton-short" />
              <span className="skeleton skeleton-block" />
            </li>
          ))}
        </ul>
      </section>
    </main>
  );
}
