"use client";
// A dashboard page that could not be loaded (most often: the database is unreachable). The
// details stay in the server log; the digest ties this page to that entry.
export default function DashboardError({ error, retry }: { error: Error & { digest?: string }; retry: () => void }) {
  return (
    <main id="main" tabIndex={-1}>
      <div className="empty" role="alert">
        <h1>This page could not be loaded</h1>
        <p>Something went wrong on our side. Nothing was changed; please try again.</p>
        <p>
          <button type="button" className="button button-primary" onClick={() => retry()}>
            Try again
          </button>
        </p>
        {error.digest && <p className="hint">Error reference: {error.digest}</p>}
      </div>
    </main>
  );
}
