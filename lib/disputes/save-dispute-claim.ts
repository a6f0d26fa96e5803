import "server-only";
import { db } from "@/lib/db";
import { ApiError } from "@/lib/http/api-error";
import { type RenterAccount, renterRentalsWhere } from "@/lib/rentals/list-renter-rentals";
import { disputeClaimSchema } from "@/lib/schemas/dispute";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The renter's reason and details, saved before the wallet sends openDispute (the chain holds no
 * words). Until the event reader records the dispute as opened they can be changed; after that
 * they are what the owner and the arbiter read, and stay. Only the renter of a paid rental that is
 * running may do this, as only they can open the dispute on chain (docs/disputes.md).
 */
export async function saveDisputeClaim(
  account: RenterAccount,
  rentalId: string,
  claim: { reason: string; details?: string | null },
  now: Date = new Date(),
) {
  const parsed = disputeClaimSchema.safeParse(claim);
  if (!parsed.success) throw new ApiError(400, parsed.error.issues[0]?.message ?? "The dispute could not be read.");
  const rental = UUID.test(rentalId)
    ? await db.rental.findFirst({
        where: { AND: [{ id: rentalId.toLowerCase() }, renterRentalsWhere(account)] },
        select: {
          id: true,
          status: true,
          startsAt: true,
          endsAt: true,
          renterAddress: true,
          trial: true,
          dispute: { select: { openedAt: true } },
        },
      })
    : null;
  if (!rental) throw new ApiError(404, "This rental is not in your account, so you cannot dispute it.");
  if (rental.dispute?.openedAt || rental.status === "disputed") {
    throw new ApiError(409, "This rental is already disputed; its reason can no longer be changed.");
  }
  if (rental.status !== "active" || rental.endsAt.getTime() <= now.getTime() || rental.startsAt.getTime() > now.getTime()) {
    throw new ApiError(409, "A dispute can only be opened while the rental is running.");
  }
  if (rental.trial) throw new ApiError(409, "A free trial cannot be disputed: nothing was paid for it (docs/trials.md).");
  if (!rental.renterAddress) {
    throw new ApiError(409, "This rental was not paid through the escrow, so there is no payment to dispute.");
  }
  const { reason, details } = parsed.data;
  return db.dispute.upsert({
    where: { rentalId: rental.id },
    create: { rentalId: rental.id, reason, details },
    update: { reason, details },
    select: { rentalId: true, reason: true, details: true },
  });
}
