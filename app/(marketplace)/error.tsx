"use client";
// The marketplace could not be loaded (most often: the database is unreachable).
import { ErrorPage } from "@/app/_components/error-page";

export default function MarketplaceError({ error, retry }: { error: unknown; retry: () => void }) {
  return (
    <ErrorPage
      error={error}
      retry={retry}
      title="The marketplace could not be loaded"
      back={{ href: "/", label: "Back to the marketplace" }}
    >
      <p>Something went wrong on our side while loading this page. Your wallet was not involved and nothing was charged.</p>
    </ErrorPage>
  );
}
