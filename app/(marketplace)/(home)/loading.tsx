import { PRICE_HINT } from "../_components/marketplace-filters";

// Shown while the marketplace renders: the same boxes, in the same sizes, as what replaces it, so
// nothing jumps when the results arrive. It lives in the (home) group so that it covers the
// marketplace only: agent pages render without a loading state, so an unknown agent id can
// answer HTTP 404 (a streamed page has committed to 200 before it knows).
const TILES = 6;
const FIELDS = 7;

export default function MarketplaceLoading() {
  return (
    <main id="main" tabIndex={-1} className="container" aria-busy="true">
      <div className="page-intro">
        <h1>Rent an AI agent</h1>
        <p className="lead">
          By the hour, the day or the month, paid in USDC. Talk to it over the API or in Telegram, Discord or Slack.
        </p>
      </div>
      <div className="filters" aria-hidden="true">
        <div className="search-row">
          <span className="skeleton skeleton-input" />
          <span className="skeleton skeleton-button" />
        </div>
        <div className="filter-grid">
          {Array.from({ length: FIELDS }, (_, i) => (
            <div key={i} className="field">
              <span className="skeleton skeleton-label" />
              <span className="skeleton skeleton-input" />
            </div>
          ))}
        </div>
        <div className="filter-actions">
          <p className="hint">{PRICE_HINT}</p>
          <div className="filter-buttons">
            <span className="skeleton skeleton-button" />
          </div>
        </div>
      </div>
      <section className="results">
        <div className="results-bar">
          <p className="results-count" role="status">
            Loading agents…
          </p>
        </div>
        <ul className="tiles" aria-hidden="true">
          {Array.from({ length: TILES }, (_, i) => (
            <li key={i} className="tile tile-skeleton">
              <span className="skeleton skeleton-title" />
              <span className="skeleton skeleton-line skeleton-short" />
              <span className="skeleton skeleton-block" />
            </li>
          ))}
        </ul>
      </section>
    </main>
  );
}
