import "server-only";
import { CATEGORIES } from "@/lib/agents/categories";
import type { SearchTerm } from "@/lib/agents/marketplace-search-terms";
import { TtlCache } from "@/lib/cache/ttl-cache";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { Prisma } from "@/lib/generated/prisma/client";
import type { MarketplaceQuery } from "@/lib/schemas/marketplace-query";

export type FacetValue = { value: string; count: number };

// What each filter could still be set to, with how many agents that would show: a facet's counts
// apply every other filter but its own, so switching category never reads "0".
export type MarketplaceFacets = { total: number; categories: FacetValue[]; skills: FacetValue[] };

type FacetRow = { kind: "total" | "category" | "skill"; value: string | null; count: number };

const SKILL_FACET_LIMIT = 100;

// Counting the categories and skills of every matching listing is most of a search's cost at
// 100,000 listings, and a count a minute old is as useful to a person choosing a filter. So those
// counts are kept per filter set for MARKETPLACE_FACETS_TTL_MS (tests: 0).
const countedCache = new TtlCache<Promise<FacetRow[]>>({ ttlMs: env.MARKETPLACE_FACETS_TTL_MS, maxEntries: 500 });

/**
 * The total and the facets of a query. `common` is every filter but category and skill (the
 * rentable condition, the search words, channel, duration, price, sold per message). Without a
 * search, channel, duration, price or per-message filter they are read from the counts the
 * database keeps (always exact, a few rows); otherwise counted over the matching listings.
 */
export async function countMarketplaceFacets(query: MarketplaceQuery, terms: SearchTerm[], common: Prisma.Sql): Promise<MarketplaceFacets> {
  const keptCountsServe =
    terms.length === 0 &&
    !query.channel &&
    !query.duration &&
    query.minPrice === undefined &&
    query.maxPrice === undefined &&
    !query.perMessage &&
    query.maxMessagePrice === undefined;
  const rows = keptCountsServe ? await db.$queryRaw<FacetRow[]>(keptFacetsSql(query)) : await countedFacets(query, terms, common);
  return shapeFacets(rows);
}

// The counts table (migration 20261126090000_marketplace_ranked_search_and_facet_counts) holds the
// listings of each category with each skill, and skill "" for all of a category's listings.
export function keptFacetsSql(query: Pick<MarketplaceQuery, "category" | "skill">): Prisma.Sql {
  const skill = query.skill ?? "";
  const inCategory = query.category ? Prisma.sql`f.category = ${query.category}` : Prisma.sql`TRUE`;
  return Prisma.sql`
    SELECT 'total' AS "kind", NULL::text AS "value", COALESCE(sum(f.listings), 0)::int AS "count"
    FROM marketplace_facet_counts f WHERE f.skill = ${skill} AND ${inCategory}
    UNION ALL
    SELECT 'category', f.category, f.listings FROM marketplace_facet_counts f WHERE f.skill = ${skill} AND f.listings > 0
    UNION ALL
    (SELECT 'skill', f.skill, sum(f.listings)::int FROM marketplace_facet_counts f WHERE f.skill <> '' AND ${inCategory}
     GROUP BY f.skill HAVING sum(f.listings) > 0 ORDER BY 3 DESC, 2 LIMIT ${SKILL_FACET_LIMIT})`;
}

function countedFacets(query: MarketplaceQuery, terms: SearchTerm[], common: Prisma.Sql): Promise<FacetRow[]> {
  const categoryOk = query.category ? Prisma.sql`a.category = ${query.category}` : Prisma.sql`TRUE`;
  const skillOk = query.skill ? Prisma.sql`${query.skill} = ANY(a.skills)` : Prisma.sql`TRUE`;
  const key = JSON.stringify([
    terms.map((t) => t.word),
    query.channel,
    query.duration,
    String(query.minPrice),
    String(query.maxPrice),
    query.perMessage,
    String(query.maxMessagePrice),
    query.category,
    query.skill,
  ]);
  return countedCache.get(
    key,
    () => db.$queryRaw<FacetRow[]>`
    WITH base AS (
      SELECT a.category, a.skills, (${categoryOk}) AS category_ok, (${skillOk}) AS skill_ok
      FROM agents a WHERE ${common}
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
}

function shapeFacets(rows: FacetRow[]): MarketplaceFacets {
  const byValue = (a: FacetValue, b: FacetValue) => a.value.localeCompare(b.value);
  const facet = (kind: FacetRow["kind"]) =>
    rows.filter((f) => f.kind === kind && f.value !== null).map((f) => ({ value: f.value!, count: f.count }));
  const categoryOrder = (v: string) => {
    const i = (CATEGORIES as readonly string[]).indexOf(v);
    return i === -1 ? CATEGORIES.length : i;
  };
  return {
    total: rows.find((f) => f.kind === "total")?.count ?? 0,
    categories: facet("category").sort((a, b) => categoryOrder(a.value) - categoryOrder(b.value) || byValue(a, b)),
    skills: facet("skill").sort(byValue),
  };
}
