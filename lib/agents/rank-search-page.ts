import "server-only";
import { MOST_CHOSEN_FIRST } from "@/lib/agents/marketplace-order";
import { nameHasEvery, relevanceScore, type SearchTerm } from "@/lib/agents/marketplace-search-terms";
import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";

/** How many of the most chosen matches (and of the most chosen name matches) relevance ranks. */
export const RANKED_CANDIDATES = 120;

// Scoring a match for relevance (word similarity, a substring per field) costs too much to do for
// every match of a broad search (a fifth of 100,000 listings). So the order is:
//   1. the candidates, by relevance, then what renters chose most: the RANKED_CANDIDATES most
//      chosen matches, and the RANKED_CANDIDATES most chosen matches whose name has every word
//      (each list an index scan in the popular sort's order that stops after it, or for a narrow
//      search the few matches sorted);
//   2. every other match, most chosen first.
// One order for every page (no overlaps, no gaps). With fewer matches than RANKED_CANDIDATES,
// every match is a candidate: the whole list is ranked.
export function rankedCandidates(where: Prisma.Sql, q: string, terms: SearchTerm[]): Prisma.Sql {
  return Prisma.sql`
    WITH candidates AS (
      (SELECT a.id FROM agents a WHERE ${where} ORDER BY ${MOST_CHOSEN_FIRST} LIMIT ${RANKED_CANDIDATES})
      UNION
      (SELECT a.id FROM agents a WHERE ${where} AND ${nameHasEvery(terms)} ORDER BY ${MOST_CHOSEN_FIRST} LIMIT ${RANKED_CANDIDATES})
    )
    SELECT a.id::text AS "id" FROM agents a WHERE a.id IN (SELECT id FROM candidates)
    ORDER BY ${relevanceScore(q, terms)} DESC, ${MOST_CHOSEN_FIRST}`;
}

/** The ids of one page of a search sorted by relevance, in order. */
export async function rankSearchPage(where: Prisma.Sql, q: string, terms: SearchTerm[], offset: number, limit: number): Promise<string[]> {
  const ranked = (await db.$queryRaw<{ id: string }[]>(rankedCandidates(where, q, terms))).map((r) => r.id);
  const page = ranked.slice(offset, offset + limit);
  // Fewer candidates than the first list's limit: they are every match.
  if (page.length === limit || ranked.length < RANKED_CANDIDATES) return page;
  const rest = await db.$queryRaw<{ id: string }[]>`
    SELECT a.id::text AS "id" FROM agents a WHERE ${where} AND a.id <> ALL(${ranked}::uuid[])
    ORDER BY ${MOST_CHOSEN_FIRST} LIMIT ${limit - page.length} OFFSET ${Math.max(0, offset - ranked.length)}`;
  return [...page, ...rest.map((r) => r.id)];
}
