"use client";
// A dashboard page that could not be loaded (most often: the database is unreachable).
import { ErrorPage } from "@/app/_components/error-page";

export default function DashboardError({ error, retry }: { error: unknown; retry: () => void }) {
  return (
    <ErrorPage error={error} retry={retry} title="This page could not be loaded" container={false}>
      <p>Something went wrong on our side. Nothing was changed; please try again.</p>
    </ErrorPage>
  );
}
