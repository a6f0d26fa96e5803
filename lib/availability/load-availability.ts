import "server-only";
import { applyCallsRule } from "@/lib/availability/apply-calls-rule";
import { type AvailabilityTerms, availabilityTerms } from "@/lib/availability/availability-terms";
import { recordMinutes } from "@/lib/availability/record-minutes";
import { db } from "@/lib/db";

const MEASURED = {
  id: true,
  startsAt: true,
  endsAt: true,
  priceMicro: true,
  guaranteePermille: true,
  minutesMeasured: true,
  minutesDown: true,
  callsCheckedUntil: true,
} as const;

/**
 * Each rental's measured availability as of `now`: the rule on real chat calls is first brought
 * up to date for the minutes that have ended (and recorded, so every reader — the renter's API and
 * page, the owner's dashboard, the release sweep — sees the same minutes). Rentals not found are
 * left out.
 */
export async function loadAvailability(rentalIds: string[], now: Date = new Date()): Promise<Map<string, AvailabilityTerms>> {
  if (rentalIds.length === 0) return new Map();
  const read = () => db.rental.findMany({ where: { id: { in: rentalIds } }, select: MEASURED });
  let rentals = await read();
  const facts = await applyCallsRule(rentals, now);
  if (facts.length > 0) {
    await recordMinutes(facts);
    rentals = await read();
  }
  return new Map(rentals.map((rental) => [rental.id, availabilityTerms(rental, now)]));
}
