import "server-only";
import { db } from "@/lib/db";
import { uuidRangeForPrefix } from "@/lib/rentals/parse-rental-code";

const agentFields = {
  id: true,
  name: true,
  description: true,
  webhookUrlCipher: true,
  webhookTokenCipher: true,
} as const;

export type RentalWithAgent = NonNullable<Awaited<ReturnType<typeof findCandidates>>>[number];

export type RentalLookup =
  | { kind: "found"; rental: RentalWithAgent }
  | { kind: "none" }
  | { kind: "ambiguous" };

// Looks a rental up by a normalised hex prefix: one range scan on the primary key (no extra
// column), LIMIT 2 so an ambiguous prefix is detected without reading more. Rentals awaiting
// payment are invisible to the renter surface.
export async function findRentalByCode(hexPrefix: string): Promise<RentalLookup> {
  const rows = await findCandidates(hexPrefix);
  if (rows.length === 0) return { kind: "none" };
  if (rows.length > 1) return { kind: "ambiguous" };
  return { kind: "found", rental: rows[0] };
}

function findCandidates(hexPrefix: string) {
  const [low, high] = uuidRangeForPrefix(hexPrefix);
  return db.rental.findMany({
    where: { id: { gte: low, lte: high }, status: { not: "pending" } },
    include: { agent: { select: agentFields } },
    take: 2,
  });
}
