import "server-only";
import { loadAvailability } from "@/lib/availability/load-availability";
import { toAvailabilityResponse } from "@/lib/availability/to-availability-response";
import { db } from "@/lib/db";
import { ApiError } from "@/lib/http/api-error";
import type { AvailabilityResponse } from "@/lib/schemas/renter-api";

/**
 * The body of GET /v1/availability (docs/availability.md): the rental's minutes as measured by
 * `now`, the calls rule brought up to date first (so the renter reads what the release sweep will
 * settle), and what the escrow recorded once it settled the rental.
 */
export async function readRentalAvailability(rentalId: string, now: Date = new Date()): Promise<AvailabilityResponse> {
  const [terms, settled] = await Promise.all([
    loadAvailability([rentalId], now).then((all) => all.get(rentalId)),
    db.rental.findUnique({ where: { id: rentalId }, select: { availabilityRefundMicro: true, slaHash: true, settledAt: true } }),
  ]);
  if (!terms || !settled) throw new ApiError(404, "Rental not found: check the rental code.");
  return toAvailabilityResponse(rentalId, terms, settled);
}
