import fc from "fast-check";
import { encodeAbiParameters, keccak256 } from "viem";
import { describe, expect, it } from "vitest";
import {
  availabilityTerms,
  type MeasuredRental,
  minuteIndex,
  minuteStart,
  minutesTotal,
  refundFor,
  slaHash,
} from "@/lib/availability/availability-terms";
import { DURATION_SECONDS } from "@/lib/rentals/durations";

const START = new Date("2026-11-27T10:00:00.000Z");
const secondsIn = (seconds: number) => new Date(START.getTime() + seconds * 1000);
const period = (type: keyof typeof DURATION_SECONDS) => ({ startsAt: START, endsAt: secondsIn(DURATION_SECONDS[type]) });

// The five lines of viem a renter runs on GET /v1/availability's down minutes.
const recompute = (downMinuteStarts: Date[]) =>
  keccak256(encodeAbiParameters([{ type: "uint64[]" }], [downMinuteStarts.map((at) => BigInt(Math.floor(at.getTime() / 1000)))]));

describe("minutesTotal", () => {
  it("is 60 for an hour, 1,440 for a day, 43,200 for a month (30 days)", () => {
    expect(minutesTotal(period("hour"))).toBe(60);
    expect(minutesTotal(period("day"))).toBe(1_440);
    expect(minutesTotal(period("month"))).toBe(43_200);
  });

  it("counts a minute begun before the end as a whole one", () => {
    expect(minutesTotal({ startsAt: START, endsAt: secondsIn(61) })).toBe(2);
    expect(minutesTotal({ startsAt: START, endsAt: secondsIn(0.5) })).toBe(1);
  });
});

describe("minuteIndex and minuteStart", () => {
  it("minute i is [startsAt + i min, startsAt + (i + 1) min)", () => {
    expect(minuteIndex({ startsAt: START }, START)).toBe(0);
    expect(minuteIndex({ startsAt: START }, secondsIn(59.999))).toBe(0);
    expect(minuteIndex({ startsAt: START }, secondsIn(60))).toBe(1);
    expect(minuteIndex({ startsAt: START }, secondsIn(-0.001))).toBe(-1);
    expect(minuteStart({ startsAt: START }, 59)).toEqual(secondsIn(59 * 60));
  });
});

describe("refundFor", () => {
  const price = 1_999_999n; // not a multiple of 60: the division rounds down
  const at99 = { priceMicro: price, guaranteePermille: 990 };

  it("an hour at 99 % has no allowance: 15 down minutes refund floor(P × 15 / 60)", () => {
    expect(refundFor(at99, 60, 15)).toBe((price * 15n) / 60n);
    expect(refundFor(at99, 60, 15)).toBe(499_999n);
    expect(refundFor(at99, 60, 1)).toBe(33_333n);
  });

  it("nothing down, nothing refunded", () => {
    expect(refundFor(at99, 60, 0)).toBe(0n);
    expect(refundFor(at99, 43_200, 0)).toBe(0n);
    expect(refundFor({ priceMicro: price, guaranteePermille: 999 }, 1_440, 0)).toBe(0n);
  });

  it("a month at 99 % allows 432 down minutes: 432 refund nothing, 433 refund floor(P × 1 / 43,200)", () => {
    const month = { priceMicro: 100_000_000n, guaranteePermille: 990 };
    expect(refundFor(month, 43_200, 431)).toBe(0n);
    expect(refundFor(month, 43_200, 432)).toBe(0n);
    expect(refundFor(month, 43_200, 433)).toBe(100_000_000n / 43_200n);
    expect(refundFor(month, 43_200, 433)).toBe(2_314n);
    expect(refundFor(month, 43_200, 532)).toBe((100_000_000n * 100n) / 43_200n);
  });

  it("at 99.9 %: a month allows 43 down minutes, a day 1, an hour none", () => {
    const strict = { priceMicro: 100_000_000n, guaranteePermille: 999 };
    expect(refundFor(strict, 43_200, 43)).toBe(0n);
    expect(refundFor(strict, 43_200, 44)).toBe(2_314n);
    expect(refundFor(strict, 1_440, 1)).toBe(0n);
    expect(refundFor(strict, 1_440, 2)).toBe(100_000_000n / 1_440n);
    expect(refundFor(strict, 60, 1)).toBe(100_000_000n / 60n);
  });

  it("a day at 99 % allows 14 down minutes", () => {
    const day = { priceMicro: 10_000_000n, guaranteePermille: 990 };
    expect(refundFor(day, 1_440, 14)).toBe(0n);
    expect(refundFor(day, 1_440, 15)).toBe(10_000_000n / 1_440n);
  });

  it("never refunds more than the price, however many minutes are said to be down", () => {
    expect(refundFor(at99, 60, 60)).toBe(price);
    expect(refundFor(at99, 60, 1_000)).toBe(price);
    expect(refundFor({ priceMicro: price, guaranteePermille: 900 }, 43_200, 43_200)).toBe((price * (43_200n - 4_320n)) / 43_200n);
    expect(refundFor(at99, 0, 5)).toBe(0n);
  });

  it("is between 0 and the price and never falls as down minutes grow (property)", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 12n }),
        fc.integer({ min: 900, max: 999 }),
        fc.integer({ min: 1, max: 43_200 }),
        fc.integer({ min: 0, max: 50_000 }),
        (priceMicro, guaranteePermille, total, down) => {
          const rental = { priceMicro, guaranteePermille };
          const refund = refundFor(rental, total, down);
          expect(refund >= 0n && refund <= priceMicro).toBe(true);
          expect(refundFor(rental, total, down + 1) >= refund).toBe(true);
          const allowance = Math.floor((total * (1000 - guaranteePermille)) / 1000);
          if (down <= allowance) expect(refund).toBe(0n);
        },
      ),
      { seed: 25, numRuns: 500 },
    );
  });
});

describe("slaHash", () => {
  it("of no down minutes is the hash of the empty uint64[]", () => {
    expect(slaHash([])).toBe(recompute([]));
    expect(slaHash([])).toBe(keccak256(encodeAbiParameters([{ type: "uint64[]" }], [[]])));
  });

  it("of a list is keccak256 of the ABI-encoded starts in unix seconds, as viem recomputes it", () => {
    const down = [minuteStart({ startsAt: START }, 3), minuteStart({ startsAt: START }, 4), minuteStart({ startsAt: START }, 59)];
    expect(slaHash(down)).toBe(recompute(down));
    expect(slaHash(down)).toBe(keccak256(encodeAbiParameters([{ type: "uint64[]" }], [[1_795_773_780n, 1_795_773_840n, 1_795_777_140n]])));
    expect(slaHash(down)).not.toBe(slaHash(down.slice(0, 2)));
    expect(slaHash(down)).not.toBe(slaHash([]));
  });

  it("drops the milliseconds of a start (whole unix seconds)", () => {
    expect(slaHash([new Date(START.getTime() + 999)])).toBe(slaHash([START]));
  });
});

describe("availabilityTerms", () => {
  const rental = (over: Partial<MeasuredRental> = {}): MeasuredRental => ({
    ...period("hour"),
    priceMicro: 2_000_000n,
    guaranteePermille: 990,
    minutesMeasured: [0, 60],
    minutesDown: [],
    ...over,
  });

  it("counts the elapsed, measured and down minutes and rounds the uptime down, in hundredths of a percent", () => {
    // 7 minutes elapsed (0–6), 1 down: 6/7 = 85.714… % → 8,571.
    const terms = availabilityTerms(rental({ minutesMeasured: [0, 7], minutesDown: [2, 3] }), secondsIn(6 * 60 + 30));
    expect(terms).toEqual({
      minutesTotal: 60,
      minutesElapsed: 7,
      minutesMeasured: 7,
      minutesDown: 1,
      downMinutes: [secondsIn(120)],
      uptimeBasisPoints: 8_571,
      guaranteePermille: 990,
      refundMicro: 2_000_000n / 60n,
      slaHash: recompute([secondsIn(120)]),
    });
  });

  it("an ended hour with 1 of 60 minutes down has 9,833 basis points (98.333…%, rounded down)", () => {
    const terms = availabilityTerms(rental({ minutesDown: [59, 60] }), secondsIn(3 * 3600));
    expect(terms.minutesElapsed).toBe(60);
    expect(terms.uptimeBasisPoints).toBe(9_833);
    expect(terms.downMinutes).toEqual([secondsIn(59 * 60)]);
  });

  it("before the start nothing has elapsed: no uptime figure", () => {
    const terms = availabilityTerms(rental({ minutesMeasured: [] }), secondsIn(-10));
    expect(terms).toMatchObject({ minutesElapsed: 0, uptimeBasisPoints: null, minutesDown: 0, refundMicro: 0n, slaHash: recompute([]) });
  });

  it("every minute up is 10,000 basis points; unmeasured minutes count as up", () => {
    expect(availabilityTerms(rental(), secondsIn(3600)).uptimeBasisPoints).toBe(10_000);
    const unmeasured = availabilityTerms(rental({ minutesMeasured: [0, 10] }), secondsIn(3600));
    expect(unmeasured).toMatchObject({ minutesMeasured: 10, minutesDown: 0, uptimeBasisPoints: 10_000, refundMicro: 0n });
  });

  it("ignores down minutes past the rental's end", () => {
    const terms = availabilityTerms(rental({ minutesDown: [58, 65] }), secondsIn(3600));
    expect(terms.minutesDown).toBe(2);
    expect(terms.refundMicro).toBe((2_000_000n * 2n) / 60n);
  });
});
