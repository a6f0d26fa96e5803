"use client";
// The checkout page could not be rendered (most often: the database is unreachable). Nothing
// was paid from this page before it loaded; a payment already sent is activated on its own.
import { ErrorPage } from "@/app/_components/error-page";

export default function RentError({ error, retry }: { error: unknown; retry: () => void }) {
  return (
    <ErrorPage error={error} retry={retry} title="The checkout could not be loaded" back={{ href: "/", label: "Back to the marketplace" }}>
      <p>
        Something went wrong on our side while preparing this checkout. No payment was requested from your wallet and nothing was charged.
      </p>
      <p>
        If you already sent a payment, it is safe: the rental is activated from the blockchain within a few minutes, whatever this page
        shows.
      </p>
    </ErrorPage>
  );
}
