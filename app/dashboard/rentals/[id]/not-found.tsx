import Link from "next/link";

// A rental id that is not one of the signed-in account's rentals (or is not an id at all).
export default function RenterRentalNotFound() {
  return (
    <main id="main" tabIndex={-1}>
      <div className="empty">
        <h1>This rental is not in your account</h1>
        <p>
          The link may be mistyped, or the rental belongs to another account. Rentals paid from a wallet show when you sign in with that
          wallet.
        </p>
        <p>
          <Link href="/dashboard/rentals" className="button button-primary">
            My rentals
          </Link>
        </p>
      </div>
    </main>
  );
}
