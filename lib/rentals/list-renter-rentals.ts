import "server-only";
import { db } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { Channel, DurationType, RentalStatus } from "@/lib/generated/prisma/enums";

/** Who is asking: the signed-in account (lib/auth/signed-in-account.ts). */
export type RenterAccount = { id: string; walletAddress: string | null };

export type RenterRating = { score: number; comment: string | null; createdAt: Date };

export type RenterRental = {
  id: string;
  /** The rental code the renter API takes (X-API-Key): the id's first 8 characters. */
  code: string;
  agentId: string;
  agentName: string;
  status: Exclude<RentalStatus, "pending">;
  durationType: DurationType;
  channel: Channel;
  startsAt: Date;
  endsAt: Date;
  priceMicro: bigint;
  feeMicro: bigint;
  /** The wallet that paid the escrow (lower-case), or null for an unpaid (demo) rental. */
  renterAddress: string | null;
  createTxHash: string | null;
  /** The rental's id on the escrow contract (random, public on chain; not the code). */
  escrowId: `0x${string}`;
  rated: boolean;
  rating: RenterRating | null;
  /** The renter's dispute, once they gave a reason or the chain recorded one. */
  dispute: RenterDispute | null;
  /** How a decided dispute ended: the part of the price returned (null: none decided). */
  disputeRefundMicro: bigint | null;
  /** What the escrow refunded for down minutes when it settled the rental (null: not settled by availability). */
  availabilityRefundMicro: bigint | null;
  /** A free trial (docs/trials.md) and its messages left; null for a paid (or demo) rental. */
  trial: { messagesLeft: number } | null;
};

export type RenterDispute = {
  reason: string | null;
  details: string | null;
  openedAt: Date | null;
  resolvedAt: Date | null;
  resolvedBy: string | null;
  /** The owner's answer in words, and when it was last saved (null: none yet). */
  ownerAnswer: string | null;
  ownerAnsweredAt: Date | null;
};

/**
 * The rentals that belong to an account: linked to it (`renter_id`), or paid from its wallet
 * (`renter_address` = the account's SIWE-verified address). Only that wallet could have paid the
 * escrow, so the address proves the rental is theirs even before `renter_id` is filled in.
 * Rentals awaiting payment are never shown (as in the renter API).
 */
export function renterRentalsWhere(account: RenterAccount): Prisma.RentalWhereInput {
  const mine: Prisma.RentalWhereInput[] = [{ renterId: account.id }];
  if (account.walletAddress) mine.push({ renterAddress: account.walletAddress.toLowerCase() });
  return { OR: mine, status: { not: "pending" } };
}

const SELECT = {
  id: true,
  agentId: true,
  status: true,
  durationType: true,
  channel: true,
  startsAt: true,
  endsAt: true,
  priceMicro: true,
  feeMicro: true,
  renterAddress: true,
  createTxHash: true,
  escrowId: true,
  agent: { select: { name: true } },
  rating: { select: { score: true, comment: true, createdAt: true } },
  dispute: {
    select: { reason: true, details: true, openedAt: true, resolvedAt: true, resolvedBy: true, ownerAnswer: true, ownerAnsweredAt: true },
  },
  disputeRefundMicro: true,
  availabilityRefundMicro: true,
  trial: true,
  trialMessagesLeft: true,
} satisfies Prisma.RentalSelect;

type Row = Prisma.RentalGetPayload<{ select: typeof SELECT }>;

function toRenterRental(row: Row): RenterRental {
  return {
    id: row.id,
    code: row.id.slice(0, 8),
    agentId: row.agentId,
    agentName: row.agent.name,
    status: row.status as RenterRental["status"],
    durationType: row.durationType,
    channel: row.channel,
    startsAt: row.startsAt,
    endsAt: row.endsAt,
    priceMicro: row.priceMicro,
    feeMicro: row.feeMicro,
    renterAddress: row.renterAddress,
    createTxHash: row.createTxHash,
    escrowId: row.escrowId as RenterRental["escrowId"],
    rated: row.rating !== null,
    rating: row.rating,
    dispute: row.dispute,
    disputeRefundMicro: row.disputeRefundMicro,
    availabilityRefundMicro: row.availabilityRefundMicro,
    trial: row.trial ? { messagesLeft: row.trialMessagesLeft ?? 0 } : null,
  };
}

export const RENTER_RENTALS_LIMIT = 200;

/** The account's rentals, newest first (by start, then creation). */
export async function listRenterRentals(account: RenterAccount, limit = RENTER_RENTALS_LIMIT): Promise<RenterRental[]> {
  const rows = await db.rental.findMany({
    where: renterRentalsWhere(account),
    select: SELECT,
    orderBy: [{ startsAt: "desc" }, { createdAt: "desc" }, { id: "asc" }],
    take: limit,
  });
  return rows.map(toRenterRental);
}

/** One of the account's rentals, or null (also for someone else's rental: no existence leak). */
export async function findRenterRental(account: RenterAccount, rentalId: string): Promise<RenterRental | null> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(rentalId)) return null;
  const row = await db.rental.findFirst({
    where: { AND: [{ id: rentalId.toLowerCase() }, renterRentalsWhere(account)] },
    select: SELECT,
  });
  return row ? toRenterRental(row) : null;
}
