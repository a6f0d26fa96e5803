import type { RentalStatus } from "@/lib/generated/prisma/enums";

/** A rental can be used at `now`: paid, started and not yet ended. Pure, for pages and services. */
export function isRentalRunning(rental: { status: RentalStatus; startsAt: Date; endsAt: Date }, now: Date): boolean {
  return rental.status === "active" && rental.startsAt <= now && rental.endsAt > now;
}
