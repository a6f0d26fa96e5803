import Link from "next/link";

// An unknown or malformed agent id (a mistyped link, or a listing its owner deleted).
export default function AgentNotFound() {
  return (
    <main id="main" tabIndex={-1} className="container">
      <div className="empty">
        <h1>This agent does not exist</h1>
        <p>The link may be mistyped, or the owner may have removed the listing.</p>
        <p>
          <Link href="/" className="button button-primary">
            Browse the marketplace
          </Link>
        </p>
      </div>
    </main>
  );
}
