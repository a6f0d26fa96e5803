import "server-only";
import { db } from "@/lib/db";
import type { Channel, DurationType, RentalStatus } from "@/lib/generated/prisma/enums";
import { ApiError } from "@/lib/http/api-error";
import { RENTAL_FEE_MICRO } from "@/lib/money/usdc";
import { DURATION_SECONDS } from "@/lib/rentals/durations";
import { newRentalId } from "@/lib/rentals/new-rental-id";
import { newRentalKeys } from "@/lib/rentals/new-rental-keys";

export type UnpaidRentalInput = {
  agentId: string;
  durationType: DurationType;
  channel: Channel;
  status: RentalStatus;
  startsInSeconds: number;
  endsInSeconds?: number;
};

// A rental that skips payment, for development, demos and tests only (operator CLI, dev seed).
// It is priced like a real one so stats and payouts read true numbers.
export async function createUnpaidRental(input: UnpaidRentalInput, now: Date = new Date()) {
  const agent = await db.agent.findUnique({ where: { id: input.agentId } });
  if (!agent) throw new ApiError(404, `No agent with id ${input.agentId}.`);
  const price = { hour: agent.pricePerHour, day: agent.pricePerDay, month: agent.pricePerMonth }[input.durationType];
  if (price === null)
    throw new ApiError(409, `Agent "${agent.name}" has no ${input.durationType} price, so it cannot be rented per ${input.durationType}.`);
  if (!agent.channels.includes(input.channel)) {
    throw new ApiError(409, `Agent "${agent.name}" does not support the ${input.channel} channel (it has ${agent.channels.join(", ")}).`);
  }
  const startsAt = new Date(now.getTime() + input.startsInSeconds * 1000);
  const endsAt =
    input.endsInSeconds === undefined
      ? new Date(startsAt.getTime() + DURATION_SECONDS[input.durationType] * 1000)
      : new Date(now.getTime() + input.endsInSeconds * 1000);
  if (endsAt <= startsAt) throw new ApiError(400, "The rental must end after it starts.");
  return db.rental.create({
    data: {
      id: await newRentalId(),
      ...newRentalKeys(),
      agentId: agent.id,
      status: input.status,
      durationType: input.durationType,
      channel: input.channel,
      startsAt,
      endsAt,
      priceMicro: price,
      feeMicro: RENTAL_FEE_MICRO,
      guaranteePermille: agent.guaranteePermille,
    },
  });
}
