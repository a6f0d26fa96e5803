"use client";
// The checkout page could not be rendered (most often: the database is unreachable). Nothing
// was paid from this page before it loaded; a payment already sent is activated on its own.
export default function RentError({ error, retry }: { error: unknown; retry: () => void }) {
  const digest = error instanceof Error && "digest" in error ? String((error as { digest?: unknown }).digest ?? "") : "";
  return (
    <main id="main" tabIndex={-1} className="container">
      <div className="empty" role="alert">
        <h1>The checkout could not be loaded</h1>
        <p>
          Something went wrong on our side while preparing this checkout. No payment was requested from your wallet and nothing
          was charged.
        </p>
        <p>
          If you already sent a payment, it is safe: the rental is activated from the blockchain within a few minutes, whatever
          this page shows.
        </p>
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
