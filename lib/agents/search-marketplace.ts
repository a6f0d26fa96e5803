import "server-only";
import { CATEGORIES } from "@/lib/agents/categories";
import { loadListingStats } from "@/lib/agents/load-agent-views";
import { loadReliability } from "@/lib/agents/load-reliability";
import { relevanceScore, type SearchTerm, searchTerms, termMatches } from "@/lib/agents/marketplace-search-terms";
import { type MarketplaceAgent, type MarketplaceAgentRow, toMarketplaceAgent } from "@/lib/agents/to-marketplace-agent";
import { TtlCache } from "@/lib/cache/ttl-cache";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { Prisma } from "@/lib/generated/prisma/client";
import { MARKETPLACE_PAGE_SIZE, type MarketplaceQuery } from "@/lib/schemas/marketplace-query";

export type FacetValue = { value: string; count: number };

export type MarketplaceSearchResult = {
  agents: MarketplaceAgent[];
  total: number;
  page: number;
  pageSize: number;
  pageCount: number;
  // What each filter could still be set to, with how many agents that would show: a facet's
  // counts apply every other filter but its own, so switching category never reads "0".
  facets: { categories: FacetValue[]; skills: FacetValue[] };
};

// Only these are ever listed: an offline agent or one without a webhook cannot take a rental.
const RENTABLE = Prisma.sql`a.status = 'available' AND a.webhook_url_cipher IS NOT NULL`;

const PRICE_COLUMN = {
  hour: Prisma.sql`a.price_per_hour`,
  day: Prisma.sql`a.price_per_day`,
  month: Prisma.sql`a.price_per_month`,
} as const;
// LEAST ignores NULLs: the cheapest duration that has a price.
const CHEAPEST_PRICE = Prisma.sql`LEAST(a.price_per_hour, a.price_per_day, a.price_per_month)`;

const SKILL_FACET_LIMIT = 100;

// The facet counts (and the total) count every matching rentable agent: at 100,000 listings that
// is most of a page's cost, and a count a minute old is as useful to a person choosing a filter.
// So they are kept per filter set for MARKETPLACE_FACETS_TTL_MS (tests: 0); the page itself is
// always read fresh.
const facetCache = new TtlCache<Promise<FacetRow[]>>({ ttlMs: env.MARKETPLACE_FACETS_TTL_MS, maxEntries: 500 });

function and(conditions: Prisma.Sql[]): Prisma.Sql {
  return conditions.length === 0 ? Prisma.sql`TRUE` : Prisma.join(conditions, " AND ");
}

// The sort keys are the counters the database keeps on each agent (rentals not awaiting payment,
// ratings' count and sum): no rows are counted per request. Each sort's ORDER BY is written as its
// partial index on the rentable agents is (migration 20261125160000_marketplace_sort_indexes), so
// an unfiltered page is read from the index in order and stops after it.
const AVERAGE = Prisma.sql`(a.rating_sum::float8 / NULLIF(a.rating_count, 0))`;

const AGENT_COLUMNS = Prisma.sql`
  a.id::text AS "id", a.name, a.description, a.category, a.skills, a.channels::text[] AS "channels",
  a.price_per_hour AS "pricePerHour", a.price_per_day AS "pricePerDay", a.price_per_month AS "pricePerMonth",
  a.status::text AS "status", (a.webhook_url_cipher IS NOT NULL) AS "webhookConnected", a.created_at AS "createdAt",
  (SELECT o.display_name FROM accounts o WHERE o.id = a.owner_id) AS "ownerName",
  (SELECT v.version FROM agent_avatars v WHERE v.agent_id = a.id) AS "avatarVersion"`;

type PageRow = Omit<MarketplaceAgentRow, "status"> & { status: string };
type FacetRow = { kind: "total" | "category" | "skill"; value: string | null; count: number };

// One page of the marketplace for a parsed query: the page (one statement), the total and the
// facets (one statement, in parallel), then ratings and rental totals of the page's agents
// (two grouped queries on ≤ 24 ids).
export async function searchMarketplace(query: MarketplaceQuery): Promise<MarketplaceSearchResult> {
  const terms = searchTerms(query.q);
  const price = query.duration ? PRICE_COLUMN[query.duration] : CHEAPEST_PRICE;

  // Every filter but category and skill: those two are also facets, counted without themselves.
  const common: Prisma.Sql[] = [RENTABLE];
  for (const term of terms) common.push(termMatches(term));
  if (query.channel) common.push(Prisma.sql`${query.channel}::"Channel" = ANY(a.channels)`);
  if (query.duration) common.push(Prisma.sql`${price} IS NOT NULL`);
  if (query.minPrice !== undefined) common.push(Prisma.sql`${price} >= ${query.minPrice}`);
  if (query.maxPrice !== undefined) common.push(Prisma.sql`${price} <= ${query.maxPrice}`);
  const categoryOk = query.category ? Prisma.sql`a.category = ${query.category}` : Prisma.sql`TRUE`;
  const skillOk = query.skill ? Prisma.sql`${query.skill} = ANY(a.skills)` : Prisma.sql`TRUE`;

  const orderBy = ordering(query, terms, price);
  const offset = (query.page - 1) * MARKETPLACE_PAGE_SIZE;

  const where = Prisma.sql`${and(common)} AND ${categoryOk} AND ${skillOk}`;
  const limit = Prisma.sql`LIMIT ${MARKETPLACE_PAGE_SIZE} OFFSET ${offset}`;
  const pageRows = db.$queryRaw<PageRow[]>`SELECT ${AGENT_COLUMNS} FROM agents a WHERE ${where} ORDER BY ${orderBy} ${limit}`;

  const facetKey = JSON.stringify([
    terms.map((t) => t.word),
    query.channel,
    query.duration,
    String(query.minPrice),
    String(query.maxPrice),
    query.category,
    query.skill,
  ]);
  const facetRows = facetCache.get(
    facetKey,
    () => db.$queryRaw<FacetRow[]>`
    WITH base AS (
      SELECT a.category, a.skills, (${categoryOk}) AS category_ok, (${skillOk}) AS skill_ok
      FROM agents a WHERE ${and(common)}
    )
    SELECT 'total' AS "kind", NULL::text AS "value", count(*) FILTER (WHERE category_ok AND skill_ok)::int AS "count" FROM base
    UNION ALL
    SELECT 'category', category, count(*) FILTER (WHERE skill_ok)::int FROM base
    GROUP BY category HAVING count(*) FILTER (WHERE skill_ok) > 0
    UNION ALL
    (SELECT 'skill', s.tag, count(*) FILTER (WHERE category_ok)::int
     FROM base CROSS JOIN LATERAL (SELECT DISTINCT tag FROM unnest(base.skills) AS t(tag)) s
     GROUP BY s.tag HAVING count(*) FILTER (WHERE category_ok) > 0
     ORDER BY 3 DESC, 2 LIMIT ${SKILL_FACET_LIMIT})`,
  );

  const [rows, facetResult] = await Promise.all([pageRows, facetRows]);
  const ids = rows.map((r) => r.id);
  const [stats, reliability] = await Promise.all([loadListingStats(ids), loadReliability(ids, new Date())]);
  const agents = rows.map((row) => toMarketplaceAgent(row, stats.get(row.id)!, reliability.get(row.id)!));

  const total = facetResult.find((f) => f.kind === "total")?.count ?? 0;
  const byValue = (a: FacetValue, b: FacetValue) => a.value.localeCompare(b.value);
  const facet = (kind: FacetRow["kind"]) =>
    facetResult.filter((f) => f.kind === kind && f.value !== null).map((f) => ({ value: f.value!, count: f.count }));
  const categoryOrder = (v: string) => {
    const i = (CATEGORIES as readonly string[]).indexOf(v);
    return i === -1 ? CATEGORIES.length : i;
  };
  return {
    agents,
    total,
    page: query.page,
    pageSize: MARKETPLACE_PAGE_SIZE,
    pageCount: Math.ceil(total / MARKETPLACE_PAGE_SIZE),
    facets: {
      categories: facet("category").sort((a, b) => categoryOrder(a.value) - categoryOrder(b.value) || byValue(a, b)),
      skills: facet("skill").sort(byValue),
    },
  };
}

// Every order ends on the id, so pages never overlap or skip an agent when values tie.
function ordering(query: MarketplaceQuery, terms: SearchTerm[], price: Prisma.Sql): Prisma.Sql {
  const popular = Prisma.sql`a.rental_count DESC, ${AVERAGE} DESC NULLS LAST, a.rating_count DESC, a.created_at DESC, a.id`;
  switch (query.sort) {
    case "price-asc":
      return Prisma.sql`${price} ASC NULLS LAST, a.created_at DESC, a.id`;
    case "price-desc":
      return Prisma.sql`${price} DESC NULLS LAST, a.created_at DESC, a.id`;
    case "newest":
      return Prisma.sql`a.created_at DESC, a.id`;
    case "rating":
      // Unrated agents last; among equal averages the one rated by more people first.
      return Prisma.sql`${AVERAGE} DESC NULLS LAST, a.rating_count DESC, a.rental_count DESC, a.id`;
    case "popular":
      return popular;
    case "relevance":
      // Without a search, "relevance" is what renters chose most.
      if (!query.q || terms.length === 0) return popular;
      return Prisma.sql`${relevanceScore(query.q, terms)} DESC, ${popular}`;
  }
}
