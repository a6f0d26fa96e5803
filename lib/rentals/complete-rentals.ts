import "server-only";
import { availabilityTerms } from "@/lib/availability/availability-terms";
import { applyChainChange, becameStatus, type ChainSource } from "@/lib/chain/apply-chain-change";
import { db } from "@/lib/db";
import { type Telling, tellAccounts } from "@/lib/disputes/tell-account";
import { rentalEndedEmail, rentalPaidOutEmail } from "@/lib/email/templates/rental-ended";
import type { Prisma } from "@/lib/generated/prisma/client";
import { recordSettlement } from "@/lib/rentals/record-settlement";

/** The release that paid rentals out: its block (final, CHAIN_CONFIRMATIONS deep) and the block's time. */
export type Released = { source: ChainSource; at: Date };

// Marks rentals as `completed` and tells each renter (and, for a paid rental, its owner) once: a
// dashboard notification and, when the account has an address, an e-mail stating the measured
// uptime and any refund for down minutes. Rentals the chain released (`released`) are completed in a
// journaled chain change with the release's settlement, so a reorg that takes the release away
// makes them active again; rentals that never went through the chain (`null`) simply end. Safe to
// call again for the same rentals (the release sweep and the event reader may both see a release).
// A rental whose dispute returned part of the price was told its outcome instead (lib/disputes).
export async function completeRentals(rentalIds: string[], released: Released | null): Promise<number> {
  if (rentalIds.length === 0) return 0;
  const complete = (client: Prisma.TransactionClient) =>
    client.rental.updateMany({
      where: { id: { in: rentalIds }, status: { in: ["active", "disputed"] } },
      data: { status: "completed" },
    });
  const count = released
    ? becameStatus(
        await applyChainChange(rentalIds, released.source, async (tx) => {
          await complete(tx);
          await recordSettlement(tx, rentalIds, { at: released.at, txHash: released.source.txHash });
        }),
        "completed",
      )
    : (await complete(db)).count;
  const rentals = await db.rental.findMany({
    where: {
      id: { in: rentalIds },
      status: "completed",
      OR: [{ disputeRefundMicro: null }, { disputeRefundMicro: 0n }],
    },
    include: {
      agent: { select: { name: true, owner: { select: { id: true, email: true } } } },
      renter: { select: { id: true, email: true } },
    },
  });
  // Told in two statements for the whole batch; the e-mails are queued for the sender, never sent
  // here (the sweep's time is the chain's).
  const tellings: Telling[] = [];
  for (const rental of rentals) {
    const message = {
      rental,
      agent: rental.agent,
      terms: availabilityTerms(rental, rental.endsAt),
      refundMicro: rental.availabilityRefundMicro ?? 0n,
    };
    if (rental.renter) {
      const email = rentalEndedEmail(message);
      tellings.push({
        account: rental.renter,
        kind: "rental-ended",
        rentalId: rental.id,
        message: email,
        notification: { title: email.subject, body: email.text },
      });
    }
    // The owner is told what a paid rental brought in; a rental that never held a payment has none.
    if (released) {
      const email = rentalPaidOutEmail(message);
      tellings.push({
        account: rental.agent.owner,
        kind: "rental-paid-out",
        rentalId: rental.id,
        message: email,
        notification: { title: email.subject, body: email.text },
      });
    }
  }
  await tellAccounts(tellings);
  return count;
}
