import "server-only";
import type { Prisma } from "@/lib/generated/prisma/client";

// What the chain decides about a rental and its dispute: nothing else is journaled or undone.
const RENTAL = {
  status: true,
  startsAt: true,
  endsAt: true,
  // An extension (RentalExtended) adds to both, and moves endsAt.
  priceMicro: true,
  feeMicro: true,
  createTxHash: true,
  disputeRefundMicro: true,
  settledAt: true,
  settleTxHash: true,
  availabilityRefundMicro: true,
  slaHash: true,
} as const;
const DISPUTE = { openedAt: true, openTxHash: true, resolvedAt: true, resolvedBy: true, resolveTxHash: true } as const;
const DATES = new Set(["rental.startsAt", "rental.endsAt", "rental.settledAt", "dispute.openedAt", "dispute.resolvedAt"]);
const AMOUNTS = new Set(["rental.priceMicro", "rental.feeMicro", "rental.disputeRefundMicro", "rental.availabilityRefundMicro"]);

/**
 * Those fields as JSON values, keyed "rental.<field>" and "dispute.<field>": dates as ISO strings,
 * amounts as decimal strings, so two states compare field by field and a journal row stores them.
 */
export type ChainState = Record<string, string | null>;

const json = (value: unknown): string | null =>
  value === null || value === undefined ? null : value instanceof Date ? value.toISOString() : String(value);

/** The chain-decided state of each rental (a rental without a dispute row has its dispute fields null). */
export async function readChainStates(client: Prisma.TransactionClient, rentalIds: string[]): Promise<Map<string, ChainState>> {
  const rows = await client.rental.findMany({
    where: { id: { in: rentalIds } },
    select: { id: true, ...RENTAL, dispute: { select: DISPUTE } },
  });
  return new Map(
    rows.map(({ id, dispute, ...rental }) => {
      const state: ChainState = {};
      for (const field of Object.keys(RENTAL)) state[`rental.${field}`] = json(rental[field as keyof typeof rental]);
      for (const field of Object.keys(DISPUTE)) state[`dispute.${field}`] = json(dispute?.[field as keyof typeof dispute]);
      return [id, state];
    }),
  );
}

/** Writes the given fields of a rental's chain-decided state back (an undo). */
export async function writeChainState(client: Prisma.TransactionClient, rentalId: string, fields: ChainState): Promise<void> {
  const rental: Record<string, unknown> = {};
  const dispute: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) {
    const [table, field] = key.split(".");
    const decoded = value === null ? null : DATES.has(key) ? new Date(value) : AMOUNTS.has(key) ? BigInt(value) : value;
    (table === "rental" ? rental : dispute)[field] = decoded;
  }
  if (Object.keys(rental).length > 0) await client.rental.update({ where: { id: rentalId }, data: rental });
  if (Object.keys(dispute).length > 0) await client.dispute.updateMany({ where: { rentalId }, data: dispute });
}
