// / — the marketplace: rentable agents as tiles, with search, filters, sort and pages in the URL.
// Server-rendered and wallet-free: the wallet code loads only on the checkout page.
import Link from "next/link";
import { redirect } from "next/navigation";
import { searchMarketplace } from "@/lib/agents/search-marketplace";
import { categoryLabel } from "@/lib/format/category";
import { DURATION_LABEL } from "@/lib/format/duration";
import { plural } from "@/lib/format/plural";
import { formatUsdc } from "@/lib/format/usdc";
import {
  hasMarketplaceFilters,
  type MarketplaceQuery,
  type MarketplaceSearchParams,
  marketplaceHref,
  parseMarketplaceQuery,
  withoutBlankParams,
} from "@/lib/schemas/marketplace-query";
import { AgentTile } from "../_components/agent-tile";
import { MarketplaceFilters } from "../_components/marketplace-filters";
import { Pagination } from "../_components/pagination";
import styles from "../marketplace.module.css";

// The filters in force, each with a link that removes just that one.
function activeFilters(query: MarketplaceQuery): { label: string; href: string }[] {
  const without = (change: Partial<MarketplaceQuery>) => marketplaceHref({ ...query, ...change, page: 1 });
  const filters: { label: string; href: string }[] = [];
  if (query.q) filters.push({ label: `“${query.q}”`, href: without({ q: undefined }) });
  if (query.category) filters.push({ label: `in ${categoryLabel(query.category)}`, href: without({ category: undefined }) });
  if (query.skill) filters.push({ label: `with skill ${query.skill}`, href: without({ skill: undefined }) });
  if (query.channel) filters.push({ label: `on ${query.channel}`, href: without({ channel: undefined }) });
  if (query.duration)
    filters.push({
      label: `rentable for ${DURATION_LABEL[query.duration].one}`,
      href: without({ duration: undefined }),
    });
  if (query.minPrice !== undefined) filters.push({ label: `from ${formatUsdc(query.minPrice)}`, href: without({ minPrice: undefined }) });
  if (query.maxPrice !== undefined) filters.push({ label: `up to ${formatUsdc(query.maxPrice)}`, href: without({ maxPrice: undefined }) });
  // A price per message needs listings sold per message: removing that filter removes both.
  if (query.perMessage) filters.push({ label: "sold per message", href: without({ perMessage: undefined, maxMessagePrice: undefined }) });
  if (query.maxMessagePrice !== undefined)
    filters.push({ label: `up to ${formatUsdc(query.maxMessagePrice)} per message`, href: without({ maxMessagePrice: undefined }) });
  return filters;
}

export default async function MarketplacePage({ searchParams }: { searchParams: Promise<MarketplaceSearchParams> }) {
  const params = await searchParams;
  // The filter form leaves blank fields out in the browser; sent without JavaScript it names them all.
  const clean = withoutBlankParams(params);
  if (clean) redirect(clean);
  const query = parseMarketplaceQuery(params);
  const result = await searchMarketplace(query);
  const filters = activeFilters(query);
  const filtered = hasMarketplaceFilters(query);
  const first = (result.page - 1) * result.pageSize + 1;
  const last = first + result.agents.length - 1;

  return (
    <main id="main" tabIndex={-1} className="container">
      <div className="page-intro">
        <h1>Rent an AI agent</h1>
        <p className="lead">
          By the hour, the day or the month, paid in USDC. Talk to it over the API or in your chat app: Telegram, WhatsApp, Discord or
          Slack.
        </p>
      </div>

      <MarketplaceFilters query={query} facets={result.facets} filtered={filtered} />

      <section aria-labelledby="results-heading" className={styles.results}>
        <div className={styles.resultsBar}>
          <h2 id="results-heading" className={styles.resultsCount}>
            {result.total === 0
              ? "No agents found"
              : result.agents.length === 0
                ? plural(result.total, "agent")
                : result.pageCount > 1
                  ? `${first}–${last} of ${plural(result.total, "agent")}`
                  : plural(result.total, "agent")}
          </h2>
          {filters.length > 0 && (
            <ul className="tags" aria-label="Active filters">
              {filters.map((f) => (
                <li key={f.label}>
                  <Link href={f.href} className={styles.chipLink}>
                    {f.label}
                    <span aria-hidden="true"> ×</span>
                    <span className="visually-hidden"> (remove this filter)</span>
                  </Link>
                </li>
              ))}
            </ul>
          )}
        </div>

        {result.agents.length > 0 ? (
          <ul className={styles.tiles} aria-label="Agents">
            {result.agents.map((agent) => (
              <AgentTile key={agent.id} agent={agent} />
            ))}
          </ul>
        ) : result.total > 0 ? (
          <div className="empty">
            <h3>There is no page {query.page}</h3>
            <p>
              These results fill {plural(result.pageCount, "page")}.{" "}
              <Link href={marketplaceHref({ ...query, page: result.pageCount })}>Go to the last page</Link>
            </p>
          </div>
        ) : filtered ? (
          <div className="empty">
            <h3>
              {query.q
                ? `No agents match ${filters.map((f) => f.label).join(" ")}`
                : `No agents match these filters: ${filters.map((f) => f.label).join(", ")}`}
            </h3>
            <p>Try other words, or remove a filter above.</p>
            <p>
              <a href="/" className="button">
                Clear all filters
              </a>
            </p>
          </div>
        ) : (
          <div className="empty">
            <h3>No agents are available right now</h3>
            <p>Agents appear here once their owners connect a working webhook. Please check back soon.</p>
          </div>
        )}

        <Pagination query={query} pageCount={result.pageCount} />
      </section>
    </main>
  );
}
