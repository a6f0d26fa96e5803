import Link from "next/link";
import { type MarketplaceQuery, marketplaceHref } from "@/lib/schemas/marketplace-query";
import styles from "./pagination.module.css";

// Pages around the current one, with the first and last always reachable: 1 … 4 5 [6] 7 8 … 20.
function pageWindow(page: number, pageCount: number): (number | "gap")[] {
  const pages = new Set([1, pageCount]);
  for (let p = page - 2; p <= page + 2; p++) if (p >= 1 && p <= pageCount) pages.add(p);
  const sorted = [...pages].sort((a, b) => a - b);
  return sorted.flatMap((p, i) => (i > 0 && p - sorted[i - 1] > 1 ? ["gap" as const, p] : [p]));
}

export function Pagination({ query, pageCount }: { query: MarketplaceQuery; pageCount: number }) {
  if (pageCount <= 1) return null;
  const page = Math.min(query.page, pageCount);
  const href = (p: number) => marketplaceHref({ ...query, page: p });
  return (
    <nav className={styles.pagination} aria-label="Pages of results">
      <ul>
        <li>
          {page > 1 ? (
            <Link href={href(page - 1)} rel="prev" className={styles.pageLink}>
              <span aria-hidden="true">←</span> Previous
            </Link>
          ) : (
            <span className={`${styles.pageLink} ${styles.isDisabled}`} aria-hidden="true">
              ← Previous
            </span>
          )}
        </li>
        {pageWindow(page, pageCount).map((p, i) =>
          p === "gap" ? (
            // biome-ignore lint/suspicious/noArrayIndexKey: a gap has no page number; its place in this fixed window is its identity
            <li key={`gap-${i}`} className={styles.pageGap} aria-hidden="true">
              …
            </li>
          ) : (
            <li key={p}>
              <Link
                href={href(p)}
                className={`${styles.pageLink} ${styles.pageNumber}`}
                aria-current={p === query.page ? "page" : undefined}
                aria-label={`Page ${p}`}
              >
                {p}
              </Link>
            </li>
          ),
        )}
        <li>
          {page < pageCount ? (
            <Link href={href(page + 1)} rel="next" className={styles.pageLink}>
              Next <span aria-hidden="true">→</span>
            </Link>
          ) : (
            <span className={`${styles.pageLink} ${styles.isDisabled}`} aria-hidden="true">
              Next →
            </span>
          )}
        </li>
      </ul>
    </nav>
  );
}
