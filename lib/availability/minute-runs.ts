/**
 * A set of minutes kept as a run list: a flat array of [from, to) pairs, ascending and disjoint
 * (never touching), e.g. [0, 45, 50, 60] is minutes 0–44 and 50–59. A month of minutes with a few
 * outages is a handful of pairs, where a bitmap would be 5.4 kB.
 */
export type MinuteRuns = number[];

/** The union of `runs` and `minutes` (in any order, repeats allowed), as a run list. */
export function addMinutes(runs: MinuteRuns, minutes: Iterable<number>): MinuteRuns {
  const all = [...listMinutes(runs), ...minutes].sort((a, b) => a - b);
  const merged: MinuteRuns = [];
  for (const minute of all) {
    const last = merged.length - 1;
    if (last > 0 && minute <= merged[last]) merged[last] = Math.max(merged[last], minute + 1);
    else merged.push(minute, minute + 1);
  }
  return merged;
}

/** How many minutes the run list holds. */
export function countMinutes(runs: MinuteRuns): number {
  let count = 0;
  for (let i = 0; i < runs.length; i += 2) count += runs[i + 1] - runs[i];
  return count;
}

/** How many of its minutes fall in [from, to). */
export function countMinutesBetween(runs: MinuteRuns, from: number, to: number): number {
  let count = 0;
  for (let i = 0; i < runs.length; i += 2) count += Math.max(0, Math.min(runs[i + 1], to) - Math.max(runs[i], from));
  return count;
}

/** Every minute it holds, ascending. */
export function listMinutes(runs: MinuteRuns): number[] {
  const minutes: number[] = [];
  for (let i = 0; i < runs.length; i += 2) for (let m = runs[i]; m < runs[i + 1]; m++) minutes.push(m);
  return minutes;
}
