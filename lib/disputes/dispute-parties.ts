import "server-only";
import { db } from "@/lib/db";

export type DisputeParties = {
  rental: { id: string; ref: string; agentId: string; priceMicro: bigint; feeMicro: bigint; endsAt: Date; status: string };
  agentName: string;
  owner: { id: string; email: string | null };
  /** The renter's account: linked to the rental, or the one signed in with the paying wallet. */
  renter: { id: string; email: string | null } | null;
};

/** Who a dispute concerns, for the messages that tell them. */
export async function loadDisputeParties(rentalId: string): Promise<DisputeParties | null> {
  const row = await db.rental.findUnique({
    where: { id: rentalId },
    select: {
      id: true,
      ref: true,
      agentId: true,
      priceMicro: true,
      feeMicro: true,
      endsAt: true,
      status: true,
      renterAddress: true,
      renter: { select: { id: true, email: true } },
      agent: { select: { name: true, owner: { select: { id: true, email: true } } } },
    },
  });
  if (!row) return null;
  const renter =
    row.renter ??
    (row.renterAddress
      ? await db.account.findUnique({ where: { walletAddress: row.renterAddress }, select: { id: true, email: true } })
      : null);
  const { agent, renter: _linked, renterAddress: _address, ...rental } = row;
  return { rental, agentName: agent.name, owner: agent.owner, renter };
}
