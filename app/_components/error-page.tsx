"use client";
import type { ReactNode } from "react";

type ErrorPageProps = {
  error: unknown;
  retry: () => void;
  title: string;
  // What happened, in the page's words (what was and was not changed or charged).
  children: ReactNode;
  // A way out besides Try again.
  back?: { href: string; label: string };
  container?: boolean;
};

/**
 * What a visitor sees when a page could not be rendered (most often: the database is
 * unreachable). The details stay in the server log; the digest ties this page to that entry.
 */
export function ErrorPage({ error, retry, title, children, back, container = true }: ErrorPageProps) {
  const digest = error instanceof Error && "digest" in error ? String((error as { digest?: unknown }).digest ?? "") : "";
  return (
    <main id="main" tabIndex={-1} className={container ? "container" : undefined}>
      <div className="empty" role="alert">
        <h1>{title}</h1>
        {children}
        <p>
          <button type="button" className="button button-primary" onClick={() => retry()}>
            Try again
          </button>
          {back && (
            <>
              {" "}
              <a href={back.href} className="button button-quiet">
                {back.label}
              </a>
            </>
          )}
        </p>
        {digest && <p className="hint">Error reference: {digest}</p>}
      </div>
    </main>
  );
}
