// What the two settlement suites share: a paid rental quoted at the chain's time, and how many
// times the escrow released it and the renter was told.
import { expect } from "vitest";
import { db } from "@/lib/db";
import { confirmRentalPayment } from "@/lib/rentals/confirm-rental-payment";
import { quoteRental } from "@/lib/rentals/quote-rental";
import { chainDate, escrowAbi, makePayableAgent, newRenter, type Payments, pay } from "./payments-harness";

/** A rental of a fresh agent by a fresh renter, quoted at the chain's time and paid (approve); confirmed unless told. */
export async function paidRental(p: Payments, options: { email?: string; confirm?: boolean } = {}) {
  const renter = await newRenter(p, { email: options.email });
  const { agent, payout } = await makePayableAgent();
  const quoted = await quoteRental({ agentId: agent.id, durationType: "hour", channel: "API", renter: renter.address }, await chainDate(p));
  const receipt = await pay(p, renter, quoted);
  if (options.confirm !== false) expect((await confirmRentalPayment(receipt.transactionHash)).status).toBe("active");
  return {
    id: quoted.rentalId,
    chainId: quoted.quote.rentalId,
    claimSecret: quoted.claimSecret,
    renter,
    agent,
    payout,
    receipt,
  };
}
export type Paid = Awaited<ReturnType<typeof paidRental>>;

/** How many RentalReleased events the escrow emitted for a rental, ever. */
export async function releases(p: Payments, r: Paid): Promise<number> {
  const events = await p.publicClient.getContractEvents({
    address: p.e.escrow,
    abi: escrowAbi,
    eventName: "RentalReleased",
    args: { id: r.chainId },
    fromBlock: 0n,
  });
  return events.length;
}

/** The renter's in-app notices and e-mails about the rental's end. */
export async function notices(r: Paid) {
  const [notifications, emails] = await Promise.all([
    db.notification.findMany({ where: { rentalId: r.id, kind: "rental-ended" } }),
    db.email.findMany({ where: { idempotencyKey: { startsWith: `rental-ended:${r.id}:` } } }),
  ]);
  return { notifications, emails };
}
