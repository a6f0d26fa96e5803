import Link from "next/link";
import { Suspense } from "react";
import { AccountNavItem } from "./account-nav-item";

// The header of every page. Only its last item depends on the visitor; it streams in on its own,
// so no page waits for the session lookup. It is the last item of the row and its placeholder
// has the same height, so nothing else moves when it arrives.
export function SiteHeader() {
  return (
    <header className="site-header">
      <div className="container site-header-inner">
        <Link href="/" className="brand">
          Agent Rental Service
        </Link>
        <nav aria-label="Main" className="site-header-nav">
          <ul className="site-nav">
            <li>
              <Link href="/">Marketplace</Link>
            </li>
            <li>
              <a href="/api/v1/openapi.json">Docs</a>
            </li>
            <Suspense fallback={<li className="site-nav-account" aria-hidden="true" />}>
              <AccountNavItem />
            </Suspense>
          </ul>
        </nav>
      </div>
    </header>
  );
}
