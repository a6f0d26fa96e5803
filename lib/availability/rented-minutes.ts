import { minuteIndex, minutesTotal } from "@/lib/availability/availability-terms";
import { countMinutesBetween, type MinuteRuns } from "@/lib/availability/minute-runs";

const MINUTE_MS = 60_000;

/** Minutes of rentals inside a window: how many had begun, and how many of those were down. */
export type RentedMinutes = { elapsed: number; down: number };

/** What the window reads of a rental (a paid one: active, disputed, completed or cancelled). */
export type WindowRental = {
  startsAt: Date;
  endsAt: Date;
  status: string;
  minutesMeasured: MinuteRuns;
  minutesDown: MinuteRuns;
};

/**
 * The rental's minutes that begin in [since, now]: elapsed as the settlement counts them (a minute
 * is elapsed once it has begun) and down as recorded. A cancelled rental (refunded in full by a
 * dispute) is no longer probed once cancelled: it counts only up to its last measured minute, so
 * the minutes after it, never measured, do not read as up.
 */
export function rentedMinutesBetween(rental: WindowRental, since: Date, now: Date): RentedMinutes {
  const from = Math.max(0, Math.ceil((since.getTime() - rental.startsAt.getTime()) / MINUTE_MS));
  let to = Math.min(minutesTotal(rental), minuteIndex(rental, now) + 1);
  if (rental.status === "cancelled") to = Math.min(to, rental.minutesMeasured.at(-1) ?? 0);
  if (to <= from) return { elapsed: 0, down: 0 };
  return { elapsed: to - from, down: countMinutesBetween(rental.minutesDown, from, to) };
}

/** The sum of the rentals' minutes in the window. */
export function addRentedMinutes(a: RentedMinutes, b: RentedMinutes): RentedMinutes {
  return { elapsed: a.elapsed + b.elapsed, down: a.down + b.down };
}
