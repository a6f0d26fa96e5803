// Renters for the dashboard's data tests: accounts with or without a wallet and e-mail, and
// rentals that belong to them.
import { randomBytes } from "node:crypto";
import { db } from "@/lib/db";
import type { RenterAccount } from "@/lib/rentals/list-renter-rentals";
import { makeRental } from "@/test/fixtures";

const hex = (bytes: number) => randomBytes(bytes).toString("hex");

export async function makeRenterAccount(
  options: { wallet?: boolean; email?: boolean } = {},
): Promise<RenterAccount & { email: string | null }> {
  return db.account.create({
    data: {
      walletAddress: options.wallet ? `0x${hex(20)}` : null,
      email: options.email ? `renter-${hex(6)}@example.com` : null,
    },
    select: { id: true, walletAddress: true, email: true },
  });
}

/** A rental of the agent that belongs to the account (renter_id). */
export async function rentalOf(agent: { id: string }, account: RenterAccount, overrides: Parameters<typeof makeRental>[1] = {}) {
  const rental = await makeRental(agent.id, overrides);
  return db.rental.update({ where: { id: rental.id }, data: { renterId: account.id } });
}
