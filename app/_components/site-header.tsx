import Link from "next/link";
import { Suspense } from "react";
import { AccountNavItem } from "./account-nav-item";
import chrome from "./site-chrome.module.css";

// The header of every page. Only its last item depends on the visitor; it streams in on its own,
// so no page waits for the session lookup. It is the last item of the row and its placeholder
// has the same height, so nothing else moves when it arrives.
export function SiteHeader() {
  return (
    <header className={chrome.siteHeader}>
      <div className={`container ${chrome.siteHeaderInner}`}>
        <Link href="/" className={chrome.brand}>
          Agent Rental Service
        </Link>
        <nav aria-label="Main" className={chrome.siteHeaderNav}>
          <ul className={chrome.siteNav}>
            <li>
              <Link href="/">Marketplace</Link>
            </li>
            <li>
              <Link href="/docs">Docs</Link>
            </li>
            <Suspense fallback={<li className={chrome.siteNavAccount} aria-hidden="true" />}>
              <AccountNavItem />
            </Suspense>
          </ul>
        </nav>
      </div>
    </header>
  );
}
