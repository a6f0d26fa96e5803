import "server-only";
import { db } from "@/lib/db";
import { type RenterAccount, renterRentalsWhere } from "@/lib/rentals/list-renter-rentals";

/** What an account does here, which decides what the dashboard shows first. */
export type AccountRoles = {
  /** It has at least one listing. */
  owner: boolean;
  /** It has at least one rental (linked to it or paid from its wallet). */
  renter: boolean;
  /** Its rentals running at `now`. */
  activeRentals: number;
};

export async function loadAccountRoles(account: RenterAccount, now: Date): Promise<AccountRoles> {
  const mine = renterRentalsWhere(account);
  const [listing, rental, activeRentals] = await Promise.all([
    db.agent.findFirst({ where: { ownerId: account.id }, select: { id: true } }),
    db.rental.findFirst({ where: mine, select: { id: true } }),
    db.rental.count({ where: { AND: [mine, { status: "active", startsAt: { lte: now }, endsAt: { gt: now } }] } }),
  ]);
  return { owner: listing !== null, renter: rental !== null, activeRentals };
}

/** The renter's things come first unless the account only lists agents, or lists agents and rents nothing now. */
export function rentingFirst(roles: AccountRoles): boolean {
  return !roles.owner || roles.activeRentals > 0;
}
