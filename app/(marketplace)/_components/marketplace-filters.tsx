import type { FacetValue } from "@/lib/agents/search-marketplace";
import { DURATIONS } from "@/lib/agents/to-marketplace-agent";
import { channelName } from "@/lib/channels/channel-name";
import { categoryLabel } from "@/lib/format/category";
import { DURATION_LABEL } from "@/lib/format/duration";
import { microToUsdc } from "@/lib/money/usdc";
import {
  countMarketplaceFilters,
  MARKETPLACE_SORTS,
  MAX_QUERY_CHARS,
  type MarketplaceQuery,
  type MarketplaceSort,
} from "@/lib/schemas/marketplace-query";
import { channelSchema } from "@/lib/schemas/renter-api";
import styles from "../marketplace.module.css";
import { SORT_LABEL } from "./labels";
import { SearchForm } from "./search-form";

// The default order is no parameter at all: a blank value, which the form leaves out of the URL.
const sortValue = (sort: MarketplaceSort) => (sort === "relevance" ? "" : sort);

export const PRICE_HINT =
  "Prices are for the chosen duration, or the cheapest one when no duration is chosen, before the 1 USDC service fee.";

export const PER_MESSAGE_HINT = "Some agents also answer single messages without a rental, paid per answer by other AI agents and scripts.";

// A plain GET form: it works without JavaScript, and the URL it produces is the state (shareable,
// bookmarkable, back-button friendly), with only the fields that have a value (SearchForm). On a
// phone the filters wait behind "Filters" (with how many are set), so the first results are on
// the first screen; wider screens show them open (marketplace.module.css).
export function MarketplaceFilters({
  query,
  facets,
  filtered,
}: {
  query: MarketplaceQuery;
  facets: { categories: FacetValue[]; skills: FacetValue[] };
  filtered: boolean;
}) {
  // A chosen value always stays selectable, even when no agent has it any more.
  const withSelected = (options: FacetValue[], selected: string | undefined) =>
    selected && !options.some((o) => o.value === selected) ? [{ value: selected, count: 0 }, ...options] : options;
  const price = (micro: bigint | undefined) => (micro === undefined ? undefined : String(microToUsdc(micro)));
  const active = countMarketplaceFilters(query);

  return (
    // role="search" on the GET form rather than a <search> around it: the landmark every screen reader knows.
    <SearchForm className={`surface ${styles.filters}`} action="/" method="get" role="search" aria-label="Search and filter agents">
      <div className={styles.searchRow}>
        <label htmlFor="filter-q" className="visually-hidden">
          Search agents
        </label>
        <input
          id="filter-q"
          name="q"
          type="search"
          defaultValue={query.q}
          maxLength={MAX_QUERY_CHARS}
          placeholder="Search by name, description or skill"
          autoComplete="off"
          enterKeyHint="search"
        />
        <button type="submit" className="button button-primary">
          Search
        </button>
      </div>

      <details className={styles.filterDisclosure}>
        <summary className={`button ${styles.filterSummary}`}>Filters{active > 0 && ` (${active} active)`}</summary>
        <fieldset className={styles.filterGrid}>
          <legend className="visually-hidden">Filters and sort order</legend>
          <div className="field">
            <label htmlFor="filter-category">Category</label>
            <select id="filter-category" name="category" defaultValue={query.category ?? ""}>
              <option value="">All categories</option>
              {withSelected(facets.categories, query.category).map((c) => (
                <option key={c.value} value={c.value}>
                  {categoryLabel(c.value)} ({c.count})
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="filter-skill">Skill</label>
            <select id="filter-skill" name="skill" defaultValue={query.skill ?? ""}>
              <option value="">Any skill</option>
              {withSelected(facets.skills, query.skill).map((s) => (
                <option key={s.value} value={s.value}>
                  {s.value} ({s.count})
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="filter-channel">Channel</label>
            <select id="filter-channel" name="channel" defaultValue={query.channel ?? ""}>
              <option value="">Any channel</option>
              {channelSchema.options.map((channel) => (
                <option key={channel} value={channel}>
                  {channelName(channel)}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="filter-duration">Duration</label>
            <select id="filter-duration" name="duration" defaultValue={query.duration ?? ""} aria-describedby="filter-price-hint">
              <option value="">Any duration</option>
              {DURATIONS.map((d) => (
                <option key={d} value={d}>
                  {DURATION_LABEL[d].one}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="filter-min">Min price (USDC)</label>
            <input
              id="filter-min"
              name="minPrice"
              type="number"
              inputMode="decimal"
              min="0"
              step="any"
              defaultValue={price(query.minPrice)}
              aria-describedby="filter-price-hint"
            />
          </div>
          <div className="field">
            <label htmlFor="filter-max">Max price (USDC)</label>
            <input
              id="filter-max"
              name="maxPrice"
              type="number"
              inputMode="decimal"
              min="0"
              step="any"
              defaultValue={price(query.maxPrice)}
              aria-describedby="filter-price-hint"
            />
          </div>
          <div className="field">
            <label htmlFor="filter-per-message">Sold per message</label>
            <select
              id="filter-per-message"
              name="perMessage"
              defaultValue={query.perMessage ? "1" : ""}
              aria-describedby="filter-per-message-hint"
            >
              <option value="">Any listing</option>
              <option value="1">Only those sold per message</option>
            </select>
          </div>
          <div className="field">
            <label htmlFor="filter-max-message">Max price per message (USDC)</label>
            <input
              id="filter-max-message"
              name="maxMessagePrice"
              type="number"
              inputMode="decimal"
              min="0"
              step="any"
              defaultValue={price(query.maxMessagePrice)}
              aria-describedby="filter-per-message-hint"
            />
          </div>
          <div className="field">
            <label htmlFor="filter-sort">Sort by</label>
            <select id="filter-sort" name="sort" defaultValue={sortValue(query.sort)}>
              {MARKETPLACE_SORTS.map((sort) => (
                <option key={sort} value={sortValue(sort)}>
                  {SORT_LABEL[sort]}
                </option>
              ))}
            </select>
          </div>
        </fieldset>

        <div className={styles.filterActions}>
          <div className={styles.filterHints}>
            <p id="filter-price-hint" className="hint">
              {PRICE_HINT}
            </p>
            <p id="filter-per-message-hint" className="hint">
              {PER_MESSAGE_HINT}
            </p>
          </div>
          <div className={styles.filterButtons}>
            {filtered && (
              <a href="/" className="button button-quiet">
                Clear filters
              </a>
            )}
            <button type="submit" className="button">
              Apply filters
            </button>
          </div>
        </div>
      </details>
    </SearchForm>
  );
}
