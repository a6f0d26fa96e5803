import "server-only";
import { Prisma } from "@/lib/generated/prisma/client";

// The sort keys are the counters the database keeps on each agent (rentals not awaiting payment,
// ratings' count and sum): no rows are counted per request. Each order is written as its partial
// index on the rentable agents is (migration 20261125160000_marketplace_sort_indexes), so an
// unfiltered page is read from the index in order and stops after it.

/** An agent's average rating, NULL when unrated. */
export const AVERAGE_RATING = Prisma.sql`(a.rating_sum::float8 / NULLIF(a.rating_count, 0))`;

/** What renters chose most first: the "popular" sort, and relevance's tie-break. */
export const MOST_CHOSEN_FIRST = Prisma.sql`a.rental_count DESC, ${AVERAGE_RATING} DESC NULLS LAST, a.rating_count DESC, a.created_at DESC, a.id`;
