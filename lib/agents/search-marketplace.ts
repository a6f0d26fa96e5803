import "server-only";
import { countMarketplaceFacets, type FacetValue, type MarketplaceFacets } from "@/lib/agents/count-marketplace-facets";
import { loadListingStats } from "@/lib/agents/load-agent-views";
import { loadReliability } from "@/lib/agents/load-reliability";
import { AVERAGE_RATING, MOST_CHOSEN_FIRST } from "@/lib/agents/marketplace-order";
import { searchTerms, termMatches } from "@/lib/agents/marketplace-search-terms";
import { rankSearchPage } from "@/lib/agents/rank-search-page";
import { type MarketplaceAgent, type MarketplaceAgentRow, toMarketplaceAgent } from "@/lib/agents/to-marketplace-agent";
import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { MARKETPLACE_PAGE_SIZE, type MarketplaceQuery } from "@/lib/schemas/marketplace-query";

export type { FacetValue };

export type MarketplaceSearchResult = {
  agents: MarketplaceAgent[];
  total: number;
  page: number;
  pageSize: number;
  pageCount: number;
  facets: Omit<MarketplaceFacets, "total">;
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

const AGENT_COLUMNS = Prisma.sql`
  a.id::text AS "id", a.name, a.description, a.category, a.skills, a.channels::text[] AS "channels",
  a.price_per_hour AS "pricePerHour", a.price_per_day AS "pricePerDay", a.price_per_month AS "pricePerMonth",
  a.price_per_message AS "pricePerMessage", a.trial_messages AS "trialMessages",
  a.status::text AS "status", (a.webhook_url_cipher IS NOT NULL) AS "webhookConnected", a.created_at AS "createdAt",
  (SELECT o.display_name FROM accounts o WHERE o.id = a.owner_id) AS "ownerName",
  (SELECT v.version FROM agent_avatars v WHERE v.agent_id = a.id) AS "avatarVersion"`;

type PageRow = Omit<MarketplaceAgentRow, "status"> & { status: string };

// One page of the marketplace for a parsed query: the page (one statement; a search by relevance
// ranks its best candidates first, lib/agents/rank-search-page.ts), the total and the facets (in
// parallel), then ratings and rental totals of the page's agents (two grouped queries on ≤ 24 ids).
export async function searchMarketplace(query: MarketplaceQuery): Promise<MarketplaceSearchResult> {
  const terms = await searchTerms(query.q);
  const price = query.duration ? PRICE_COLUMN[query.duration] : CHEAPEST_PRICE;

  // Every filter but category and skill: those two are also facets, counted without themselves.
  const commonFilters: Prisma.Sql[] = [RENTABLE];
  for (const term of terms) commonFilters.push(termMatches(term));
  if (query.channel) commonFilters.push(Prisma.sql`${query.channel}::"Channel" = ANY(a.channels)`);
  if (query.duration) commonFilters.push(Prisma.sql`${price} IS NOT NULL`);
  if (query.minPrice !== undefined) commonFilters.push(Prisma.sql`${price} >= ${query.minPrice}`);
  if (query.maxPrice !== undefined) commonFilters.push(Prisma.sql`${price} <= ${query.maxPrice}`);
  // Sold per message (at most this per answer): the partial index
  // agents_marketplace_per_message_idx holds exactly these listings, so a page or a count reads
  // only them however few they are among the rentable ones.
  if (query.perMessage) commonFilters.push(Prisma.sql`a.price_per_message IS NOT NULL`);
  if (query.maxMessagePrice !== undefined) commonFilters.push(Prisma.sql`a.price_per_message <= ${query.maxMessagePrice}`);
  const common = Prisma.join(commonFilters, " AND ");
  const where = Prisma.sql`${common}
    AND ${query.category ? Prisma.sql`a.category = ${query.category}` : Prisma.sql`TRUE`}
    AND ${query.skill ? Prisma.sql`${query.skill} = ANY(a.skills)` : Prisma.sql`TRUE`}`;

  const offset = (query.page - 1) * MARKETPLACE_PAGE_SIZE;
  const pageRows = async () => {
    if (query.q && terms.length > 0 && query.sort === "relevance") {
      const ids = await rankSearchPage(where, query.q, terms, offset, MARKETPLACE_PAGE_SIZE);
      const rows = await db.$queryRaw<PageRow[]>`SELECT ${AGENT_COLUMNS} FROM agents a WHERE a.id = ANY(${ids}::uuid[])`;
      const byId = new Map(rows.map((r) => [r.id, r]));
      return ids.flatMap((id) => byId.get(id) ?? []);
    }
    return db.$queryRaw<PageRow[]>`SELECT ${AGENT_COLUMNS} FROM agents a WHERE ${where}
      ORDER BY ${ordering(query, price)} LIMIT ${MARKETPLACE_PAGE_SIZE} OFFSET ${offset}`;
  };

  const [rows, { total, ...facets }] = await Promise.all([pageRows(), countMarketplaceFacets(query, terms, common)]);
  const ids = rows.map((r) => r.id);
  const [stats, reliability] = await Promise.all([loadListingStats(ids), loadReliability(ids, new Date())]);
  const agents = rows.map((row) => toMarketplaceAgent(row, stats.get(row.id)!, reliability.get(row.id)!));
  return {
    agents,
    total,
    page: query.page,
    pageSize: MARKETPLACE_PAGE_SIZE,
    pageCount: Math.ceil(total / MARKETPLACE_PAGE_SIZE),
    facets,
  };
}

// Every order ends on the id, so pages never overlap or skip an agent when values tie.
function ordering(query: MarketplaceQuery, price: Prisma.Sql): Prisma.Sql {
  switch (query.sort) {
    case "price-asc":
      return Prisma.sql`${price} ASC NULLS LAST, a.created_at DESC, a.id`;
    case "price-desc":
      return Prisma.sql`${price} DESC NULLS LAST, a.created_at DESC, a.id`;
    case "newest":
      return Prisma.sql`a.created_at DESC, a.id`;
    case "rating":
      // Unrated agents last; among equal averages the one rated by more people first.
      return Prisma.sql`${AVERAGE_RATING} DESC NULLS LAST, a.rating_count DESC, a.rental_count DESC, a.id`;
    case "popular":
    case "relevance":
      // Without a search, "relevance" is what renters chose most.
      return MOST_CHOSEN_FIRST;
  }
}
