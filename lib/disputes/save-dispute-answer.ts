import "server-only";
import { z } from "zod";
import { db } from "@/lib/db";
import { loadDisputeParties } from "@/lib/disputes/dispute-parties";
import { tellAccount } from "@/lib/disputes/tell-account";
import { plainEmail } from "@/lib/email/templates/plain-email";
import { appUrl } from "@/lib/env";
import { ApiError } from "@/lib/http/api-error";
import { RENTAL_REF } from "@/lib/rentals/rental-ref";
import { disputeAnswerSchema } from "@/lib/schemas/dispute";

// The listing and the rental's reference, as the owner's page binds them to its form.
const targetSchema = z.object({ agentId: z.guid(), rentalRef: z.string().regex(RENTAL_REF) });

/**
 * The owner's answer to a dispute on one of their listings, in words: one per dispute, replaced by
 * each save until the service records the decision, then it stays as the renter and the arbiter
 * read it. Another owner's dispute, an unknown reference and a dispute not yet opened on chain all
 * read as the same 404.
 *
 * The renter is told that the owner answered once per dispute, however often the answer is edited
 * (tellAccount's keys), and every save asks again, so a first telling that failed half-way is
 * finished by the next save. The message says where to read the answer and does not quote it: the
 * owner's words would otherwise reach the renter's inbox from the service's own address.
 */
export async function saveDisputeAnswer(
  ownerId: string,
  target: { agentId: string; rentalRef: string },
  answer: string,
  now: Date = new Date(),
): Promise<{ answer: string; answeredAt: Date; first: boolean }> {
  const parsed = disputeAnswerSchema.safeParse({ answer });
  if (!parsed.success) throw new ApiError(400, parsed.error.issues[0]?.message ?? "The answer could not be read.");
  const notFound = new ApiError(404, "This dispute is not on one of your listings.");
  const where = targetSchema.safeParse(target);
  if (!where.success) throw notFound;
  const dispute = await db.dispute.findFirst({
    where: {
      openedAt: { not: null },
      rental: { ref: where.data.rentalRef.toLowerCase(), agentId: where.data.agentId, agent: { ownerId } },
    },
    select: { rentalId: true, resolvedAt: true, ownerAnswer: true },
  });
  if (!dispute) throw notFound;
  const decided = new ApiError(409, "This dispute has been decided, so your answer can no longer be changed.");
  if (dispute.resolvedAt) throw decided;
  // Conditional on the row itself, so a decision recorded since the read above still wins.
  const saved = await db.dispute.updateMany({
    where: { rentalId: dispute.rentalId, resolvedAt: null },
    data: { ownerAnswer: parsed.data.answer, ownerAnsweredAt: now },
  });
  if (saved.count === 0) throw decided;
  await tellRenter(dispute.rentalId);
  return { answer: parsed.data.answer, answeredAt: now, first: dispute.ownerAnswer === null };
}

async function tellRenter(rentalId: string): Promise<void> {
  const parties = await loadDisputeParties(rentalId);
  if (!parties?.renter) return;
  const { rental, agentName, renter } = parties;
  // The renter knows the rental by its code, the first characters of its id.
  const text = `The owner of "${agentName}" answered your dispute over rental ${rental.id.slice(0, 8)}. Read it on the rental's page. Unless the owner accepts the dispute, an arbiter decides, with the answer beside your reason and the service's measurements.`;
  const email = plainEmail(`The owner answered your dispute (${agentName}, rental ${rental.id.slice(0, 8)})`, [text], {
    url: `${appUrl()}/dashboard/rentals/${rental.id}#dispute`,
    label: "Read the answer",
  });
  await tellAccount(renter, "dispute-answered", rental.id, email, { title: "The owner answered your dispute", body: text });
}
