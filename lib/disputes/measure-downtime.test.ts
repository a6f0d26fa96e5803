import { describe, expect, it } from "vitest";
import { measureDowntime } from "@/lib/disputes/measure-downtime";

const t = (minutes: number) => new Date(Date.UTC(2026, 10, 25, 12, 0) + minutes * 60_000);
const MIN = 60_000;

describe("measureDowntime", () => {
  it("counts from a failed check to the next passing one", () => {
    const checks = [
      { at: t(0), ok: true },
      { at: t(15), ok: false },
      { at: t(30), ok: false },
      { at: t(45), ok: true },
    ];
    expect(measureDowntime(checks, t(0), t(60))).toBe(30 * MIN);
  });

  it("takes the state at the start from a check before the window, and runs a failure to the window's end", () => {
    const checks = [
      { at: t(-5), ok: false },
      { at: t(10), ok: true },
      { at: t(50), ok: false },
    ];
    expect(measureDowntime(checks, t(0), t(60))).toBe(10 * MIN + 10 * MIN);
  });

  it("counts nothing without checks, or for an empty window", () => {
    expect(measureDowntime([], t(0), t(60))).toBe(0);
    expect(measureDowntime([{ at: t(1), ok: false }], t(60), t(60))).toBe(0);
  });

  it("ignores what happened after the window", () => {
    expect(
      measureDowntime(
        [
          { at: t(59), ok: false },
          { at: t(90), ok: true },
        ],
        t(0),
        t(60),
      ),
    ).toBe(1 * MIN);
  });
});
