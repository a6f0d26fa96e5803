import { encodeAbiParameters, type Hex, keccak256 } from "viem";
import { countMinutes, listMinutes, type MinuteRuns } from "@/lib/availability/minute-runs";

const MINUTE_MS = 60_000;

/** What the availability terms read of a rental. */
export type MeasuredRental = {
  startsAt: Date;
  endsAt: Date;
  priceMicro: bigint;
  guaranteePermille: number;
  minutesMeasured: MinuteRuns;
  minutesDown: MinuteRuns;
};

/** The rental's minutes: minute i is [startsAt + i min, startsAt + (i + 1) min). */
export function minutesTotal(rental: { startsAt: Date; endsAt: Date }): number {
  return Math.ceil((rental.endsAt.getTime() - rental.startsAt.getTime()) / MINUTE_MS);
}

/** The index of the rental's minute that holds `at` (negative before the start, ≥ total after the end). */
export function minuteIndex(rental: { startsAt: Date }, at: Date): number {
  return Math.floor((at.getTime() - rental.startsAt.getTime()) / MINUTE_MS);
}

/** When the rental's minute `index` starts. */
export function minuteStart(rental: { startsAt: Date }, index: number): Date {
  return new Date(rental.startsAt.getTime() + index * MINUTE_MS);
}

/**
 * The settlement rule (docs/availability.md), in integers:
 * allowance = floor(total × (100 − guarantee) / 100) down minutes are the owner's to spend;
 * refund = floor(price × max(0, down − allowance) / total) micro-USDC goes back to the renter.
 * Never more than the price: down ≤ total.
 */
export function refundFor(rental: { priceMicro: bigint; guaranteePermille: number }, total: number, down: number): bigint {
  if (total <= 0) return 0n;
  const allowance = Math.floor((total * (1000 - rental.guaranteePermille)) / 1000);
  const over = Math.min(total, Math.max(0, down - allowance));
  return (rental.priceMicro * BigInt(over)) / BigInt(total);
}

/**
 * keccak256 of the canonical down-minute list: the ABI encoding of a uint64[] of each down
 * minute's start in unix seconds, ascending (docs/availability.md shows the five lines of viem
 * that recompute it from GET /v1/availability). The empty list has a hash too.
 */
export function slaHash(downMinuteStarts: Date[]): Hex {
  const seconds = downMinuteStarts.map((at) => BigInt(Math.floor(at.getTime() / 1000)));
  return keccak256(encodeAbiParameters([{ type: "uint64[]" }], [seconds]));
}

/** A rental's measured availability so far (or in full, once it has ended and been finalized). */
export type AvailabilityTerms = {
  minutesTotal: number;
  /** Minutes of the rental begun by `now` (all of them once it has ended). */
  minutesElapsed: number;
  minutesMeasured: number;
  minutesDown: number;
  downMinutes: Date[];
  /** Share of the elapsed minutes that were up, in hundredths of a percent, rounded down (null: none elapsed). */
  uptimeBasisPoints: number | null;
  guaranteePermille: number;
  refundMicro: bigint;
  slaHash: Hex;
};

export function availabilityTerms(rental: MeasuredRental, now: Date): AvailabilityTerms {
  const total = minutesTotal(rental);
  const elapsed = Math.max(0, Math.min(total, minuteIndex(rental, now) + 1));
  const down = listMinutes(rental.minutesDown).filter((m) => m < total);
  const downMinutes = down.map((m) => minuteStart(rental, m));
  const measured = countMinutes(rental.minutesMeasured);
  return {
    minutesTotal: total,
    minutesElapsed: elapsed,
    minutesMeasured: measured,
    minutesDown: down.length,
    downMinutes,
    uptimeBasisPoints: elapsed === 0 ? null : Math.floor((10_000 * Math.max(0, elapsed - down.length)) / elapsed),
    guaranteePermille: rental.guaranteePermille,
    refundMicro: refundFor(rental, total, down.length),
    slaHash: slaHash(downMinutes),
  };
}
