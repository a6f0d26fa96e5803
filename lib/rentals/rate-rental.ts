import "server-only";
import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { ApiError } from "@/lib/http/api-error";
import { type RenterAccount, renterRentalsWhere } from "@/lib/rentals/list-renter-rentals";
import { type RatingInput, ratingInputSchema } from "@/lib/schemas/rating";

export type SavedRating = {
  id: string;
  rentalId: string;
  agentId: string;
  score: number;
  comment: string | null;
  createdAt: Date;
};

/**
 * The renter's rating of one of their rentals: 1–5 stars and an optional comment, once per rental
 * (the ratings table's unique rental_id settles races). Only a rental that has started — active,
 * disputed or completed — can be rated. It counts in the agent's marketplace average at once.
 * Errors are ApiErrors with a sentence for the renter: 400 input, 404 not theirs, 409 state.
 */
export async function rateRental(
  account: RenterAccount,
  rentalId: string,
  input: RatingInput,
  now: Date = new Date(),
): Promise<SavedRating> {
  const parsed = ratingInputSchema.safeParse(input);
  if (!parsed.success) throw new ApiError(400, parsed.error.issues[0]?.message ?? "The rating could not be read.");
  const validId = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(rentalId);
  const rental = validId
    ? await db.rental.findFirst({
        where: { AND: [{ id: rentalId.toLowerCase() }, renterRentalsWhere(account)] },
        select: { id: true, agentId: true, status: true, startsAt: true, trial: true, rating: { select: { id: true } } },
      })
    : null;
  if (!rental) throw new ApiError(404, "This rental is not in your account, so you cannot rate it.");
  if (rental.rating) throw new ApiError(409, "You have already rated this rental. Each rental can be rated once.");
  // Ratings come from paid rentals: free trials (up to 3 a day per account) would let anyone
  // move a listing's rating cheaply (docs/trials.md).
  if (rental.trial) throw new ApiError(409, "A free trial cannot be rated; ratings come from paid rentals.");
  if (rental.status === "cancelled") throw new ApiError(409, "This rental was cancelled, so it cannot be rated.");
  if (rental.startsAt.getTime() > now.getTime()) {
    throw new ApiError(409, "This rental has not started yet. You can rate the agent once the rental has begun.");
  }
  try {
    return await db.rating.create({
      data: { rentalId: rental.id, agentId: rental.agentId, score: parsed.data.score, comment: parsed.data.comment },
      select: { id: true, rentalId: true, agentId: true, score: true, comment: true, createdAt: true },
    });
  } catch (error) {
    // Two submissions raced: the unique rental_id let exactly one in.
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") {
      throw new ApiError(409, "You have already rated this rental. Each rental can be rated once.");
    }
    throw error;
  }
}
