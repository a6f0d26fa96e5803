import "server-only";
import { db } from "@/lib/db";
import { tellAccount } from "@/lib/disputes/tell-account";
import { rentalEndedEmail } from "@/lib/email/templates/rental-ended";

// Marks rentals whose escrow the chain released as `completed`, and tells each renter once: a
// dashboard notification and, when the account has an address, an e-mail. Safe to call again
// for the same rentals (the release sweep and the event reader may both see a release). A rental
// whose dispute returned part of the price was told its outcome instead (lib/disputes).
export async function completeRentals(rentalIds: string[]): Promise<number> {
  if (rentalIds.length === 0) return 0;
  const { count } = await db.rental.updateMany({
    where: { id: { in: rentalIds }, status: { in: ["active", "disputed"] } },
    data: { status: "completed" },
  });
  const rentals = await db.rental.findMany({
    where: {
      id: { in: rentalIds },
      status: "completed",
      renterId: { not: null },
      OR: [{ disputeRefundMicro: null }, { disputeRefundMicro: 0n }],
    },
    include: { agent: { select: { name: true } }, renter: { select: { id: true, email: true } } },
  });
  for (const rental of rentals) {
    const email = rentalEndedEmail({ rental, agent: rental.agent });
    await tellAccount(rental.renter!, "rental-ended", rental.id, email, { title: email.subject, body: email.text });
  }
  return count;
}
