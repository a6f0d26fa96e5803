import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { addMinutes, countMinutes, countMinutesBetween, listMinutes, type MinuteRuns } from "@/lib/availability/minute-runs";

// A run list is ascending, disjoint and never touching: [a0, b0, a1, b1, …] with a_i < b_i < a_{i+1}.
function isCanonical(runs: MinuteRuns): boolean {
  if (runs.length % 2 !== 0) return false;
  for (let i = 0; i < runs.length; i += 2) {
    if (!(runs[i] < runs[i + 1])) return false;
    if (i > 0 && !(runs[i - 1] < runs[i])) return false;
  }
  return true;
}

describe("addMinutes", () => {
  it("makes a run list of single minutes, merging neighbours into one run", () => {
    expect(addMinutes([], [])).toEqual([]);
    expect(addMinutes([], [5])).toEqual([5, 6]);
    expect(addMinutes([], [0, 1, 2, 3])).toEqual([0, 4]);
    expect(addMinutes([], [0, 2, 4])).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it("takes the minutes in any order, repeats allowed", () => {
    expect(addMinutes([], [9, 3, 4, 3, 0, 9, 2])).toEqual([0, 1, 2, 5, 9, 10]);
  });

  it("is the union with what the list held", () => {
    expect(addMinutes([0, 45, 50, 60], [47])).toEqual([0, 45, 47, 48, 50, 60]);
    expect(addMinutes([10, 20], [0, 30])).toEqual([0, 1, 10, 20, 30, 31]);
    expect(addMinutes([10, 20], [12, 15, 19])).toEqual([10, 20]);
  });

  it("joins a run to the minute just before it and just after it, and two runs through the minute between them", () => {
    expect(addMinutes([10, 20], [20])).toEqual([10, 21]);
    expect(addMinutes([10, 20], [9])).toEqual([9, 20]);
    expect(addMinutes([0, 45, 46, 60], [45])).toEqual([0, 60]);
    expect(addMinutes([0, 1, 2, 3, 4, 5], [1, 3])).toEqual([0, 5]);
  });

  it("is idempotent: adding minutes already held changes nothing", () => {
    const once = addMinutes([], [3, 4, 5, 17, 40]);
    expect(addMinutes(once, [3, 4, 5, 17, 40])).toEqual(once);
    expect(addMinutes(once, [])).toEqual(once);
    expect(addMinutes(once, listMinutes(once))).toEqual(once);
  });

  it("extends the first run (from minute 0) like any other", () => {
    expect(addMinutes([0, 1], [1, 2])).toEqual([0, 3]);
    expect(addMinutes([], [1, 0])).toEqual([0, 2]);
  });

  it("as a set, equals the set union, and is always canonical (property)", () => {
    const minutes = fc.array(fc.integer({ min: 0, max: 200 }), { maxLength: 80 });
    fc.assert(
      fc.property(minutes, minutes, (before, added) => {
        const runs = addMinutes([], before);
        const result = addMinutes(runs, added);
        expect(isCanonical(runs)).toBe(true);
        expect(isCanonical(result)).toBe(true);
        const union = [...new Set([...before, ...added])].sort((a, b) => a - b);
        expect(listMinutes(result)).toEqual(union);
        expect(countMinutes(result)).toBe(union.length);
        // Order of the additions does not matter.
        expect(addMinutes(addMinutes([], added), before)).toEqual(result);
      }),
      { seed: 25, numRuns: 500 },
    );
  });
});

describe("countMinutes", () => {
  it("sums the runs' lengths", () => {
    expect(countMinutes([])).toBe(0);
    expect(countMinutes([0, 45, 50, 60])).toBe(55);
    expect(countMinutes([7, 8])).toBe(1);
    expect(countMinutes([0, 43_200])).toBe(43_200);
  });
});

describe("countMinutesBetween", () => {
  const runs = [0, 45, 50, 60];
  it("counts the minutes inside [from, to)", () => {
    expect(countMinutesBetween(runs, 0, 60)).toBe(55);
    expect(countMinutesBetween(runs, 40, 55)).toBe(10); // 40–44 and 50–54
    expect(countMinutesBetween(runs, 45, 50)).toBe(0);
    expect(countMinutesBetween(runs, 44, 45)).toBe(1);
    expect(countMinutesBetween(runs, 59, 1_000)).toBe(1);
    expect(countMinutesBetween(runs, 60, 1_000)).toBe(0);
    expect(countMinutesBetween(runs, 10, 10)).toBe(0);
    expect(countMinutesBetween([], 0, 100)).toBe(0);
  });

  it("agrees with counting the listed minutes (property)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 120 }), { maxLength: 60 }),
        fc.integer({ min: 0, max: 130 }),
        fc.integer({ min: 0, max: 130 }),
        (minutes, a, b) => {
          const [from, to] = a <= b ? [a, b] : [b, a];
          const list = addMinutes([], minutes);
          expect(countMinutesBetween(list, from, to)).toBe(listMinutes(list).filter((m) => m >= from && m < to).length);
        },
      ),
      { seed: 25, numRuns: 300 },
    );
  });
});

describe("listMinutes", () => {
  it("lists every minute, ascending", () => {
    expect(listMinutes([])).toEqual([]);
    expect(listMinutes([0, 3, 7, 9])).toEqual([0, 1, 2, 7, 8]);
    expect(listMinutes([43_199, 43_200])).toEqual([43_199]);
  });
});
