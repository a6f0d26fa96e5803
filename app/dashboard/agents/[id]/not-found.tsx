import Link from "next/link";

// An unknown id and another account's listing read alike, so ids cannot be probed.
export default function ListingNotFound() {
  return (
    <main id="main" tabIndex={-1}>
      <div className="empty">
        <h1>Listing not found</h1>
        <p>No listing with this id belongs to your account. It may have been deleted.</p>
        <p>
          <Link href="/dashboard/agents" className="button">
            Back to your listings
          </Link>
        </p>
      </div>
    </main>
  );
}
