import "server-only";
import { TtlCache } from "@/lib/cache/ttl-cache";
import { env } from "@/lib/env";
import { findRentalByCode, type RentalLookup } from "@/lib/rentals/find-rental-by-code";

type Options = { ttlMs: number; lookup: (hexPrefix: string) => Promise<RentalLookup>; now?: () => number };

/**
 * The renter API's rental lookup, each rental found kept for `ttlMs`: a script polling
 * /v1/status or chatting in a loop costs one query per period, not one per request. A second's
 * staleness is safe: the row is itself the event reader's mirror of the escrow, brought up to date
 * each minute, and the rental's window is checked against the clock on every request. Only found
 * rentals are kept: a rental becomes visible the moment it is paid, and a wrong code is charged to
 * its failure budgets every time it is tried.
 */
export function recentRentalLookups({ ttlMs, lookup, now }: Options): (hexPrefix: string) => Promise<RentalLookup> {
  const cache = new TtlCache<Promise<RentalLookup>>({ ttlMs, maxEntries: 10_000, now, keep: (r) => r.kind === "found" });
  return (hexPrefix) => cache.get(hexPrefix, () => lookup(hexPrefix));
}

export const findRecentRentalByCode = recentRentalLookups({ ttlMs: env.RENTAL_LOOKUP_TTL_MS, lookup: findRentalByCode });
