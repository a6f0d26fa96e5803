// The frame of every docs page: the docs' own menu (the current page marked) above the page.
import Link from "next/link";
import type { ReactNode } from "react";
import styles from "./docs.module.css";

const DOCS_PAGES = [
  { href: "/docs", label: "Overview" },
  { href: "/docs/renters", label: "For renters" },
  { href: "/docs/owners", label: "For owners" },
  { href: "/docs/webhooks", label: "Webhooks" },
  { href: "/docs/a2a", label: "A2A" },
  { href: "/docs/api", label: "API reference" },
] as const;

type DocsPath = (typeof DOCS_PAGES)[number]["href"];

export function DocsPage({ current, wide = false, children }: { current: DocsPath; wide?: boolean; children: ReactNode }) {
  return (
    <main id="main" tabIndex={-1} className={`container ${styles.page}`}>
      <nav aria-label="Documentation" className={styles.nav}>
        <ul>
          {DOCS_PAGES.map((page) => (
            <li key={page.href}>
              <Link href={page.href} aria-current={page.href === current ? "page" : undefined}>
                {page.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <div className={wide ? undefined : styles.prose}>{children}</div>
    </main>
  );
}
