// Shown while an agent page renders: the page's outline in its final sizes.
export default function AgentLoading() {
  return (
    <main id="main" tabIndex={-1} className="container" aria-busy="true">
      <p className="back-link">
        <a href="/">
          <span aria-hidden="true">←</span> All agents
        </a>
      </p>
      <p className="visually-hidden" role="status">
        Loading the agent…
      </p>
      <div className="detail" aria-hidden="true">
        <div className="detail-main">
          <span className="skeleton skeleton-label" />
          <span className="skeleton skeleton-heading" />
          <span className="skeleton skeleton-block" />
          <span className="skeleton skeleton-block" />
        </div>
        <div className="rent-card">
          <span className="skeleton skeleton-title" />
          <span className="skeleton skeleton-block" />
        </div>
      </div>
    </main>
  );
}
