"use client";
// What a renter sees when the marketplace cannot be loaded (most often: the database is
// unreachable). The details stay in the server log; the digest ties this page to that entry.
export default function MarketplaceError({ error, retry }: { error: unknown; retry: () => void }) {
  const digest = error instanceof Error && "digest" in error ? String((error as { digest?: unknown }).digest ?? "") : "";
  return (
    <main id="main" tabIndex={-1} className="container">
      <div className="empty" role="alert">
        <h1>The marketplace could not be loaded</h1>
        <p>Something went wrong on our side while loading this page. Your wallet was not involved and nothing was charged.</p>
        <p>
          <button type="button" className="button button-primary" onClick={() => retry()}>
            Try again
          </button>{" "}
          <a href="/" className="button button-quiet">
            Back to the marketplace
          </a>
        </p>
        {digest && <p className="hint">Error reference: {digest}</p>}
      </div>
    </main>
  );
}
