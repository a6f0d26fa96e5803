import "server-only";
import { db } from "@/lib/db";
import { type RenterAccount, renterRentalsWhere } from "@/lib/rentals/list-renter-rentals";
import { type RentalLiveState, rentalLiveState } from "@/lib/rentals/rental-live-state";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * What of one of the account's rentals its page would show differently now (the rental page polls
 * it); null for a rental that is not the account's, as on the page. Three indexed reads.
 */
export async function loadRentalLiveState(account: RenterAccount, rentalId: string): Promise<RentalLiveState | null> {
  if (!UUID.test(rentalId)) return null;
  const id = rentalId.toLowerCase();
  const [rental, chat] = await Promise.all([
    db.rental.findFirst({
      where: { AND: [{ id }, renterRentalsWhere(account)] },
      select: { status: true, dispute: { select: { resolvedAt: true, ownerAnsweredAt: true } }, _count: { select: { chatCalls: true } } },
    }),
    db.chatBinding.findUnique({ where: { openRentalId: id }, select: { createdAt: true } }),
  ]);
  if (!rental || rental.status === "pending") return null;
  return rentalLiveState({
    status: rental.status,
    disputeDecidedAt: rental.dispute?.resolvedAt ?? null,
    ownerAnsweredAt: rental.dispute?.ownerAnsweredAt ?? null,
    messages: rental._count.chatCalls,
    chatConnectedAt: chat?.createdAt ?? null,
  });
}
