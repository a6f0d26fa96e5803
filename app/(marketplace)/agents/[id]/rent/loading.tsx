// Shown while the checkout page loads: its outline in its final sizes.
export default function RentLoading() {
  return (
    <main id="main" tabIndex={-1} className="container" aria-busy="true">
      <p className="back-link">
        <span className="skeleton skeleton-line skeleton-short" />
      </p>
      <p className="visually-hidden" role="status">
        Loading the checkout…
      </p>
      <div className="detail" aria-hidden="true">
        <div className="detail-main">
          <span className="skeleton skeleton-label" />
          <span className="skeleton skeleton-heading" />
          <span className="skeleton skeleton-block" />
        </div>
        <div className="rent-card">
          <span className="skeleton skeleton-title" />
          <span className="skeleton skeleton-block" />
          <span className="skeleton skeleton-block" />
        </div>
      </div>
    </main>
  );
}
