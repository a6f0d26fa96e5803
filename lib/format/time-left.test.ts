import { describe, expect, it } from "vitest";
import { describeTimeLeft, formatTimeLeft } from "@/lib/format/time-left";

const S = 1000;
const M = 60 * S;
const H = 60 * M;
const D = 24 * H;

describe("formatTimeLeft", () => {
  it("shows the two largest units in words, the same on every page", () => {
    expect(formatTimeLeft(30 * D - 1)).toBe("29 days 23 hours");
    expect(formatTimeLeft(D)).toBe("1 day 0 hours");
    expect(formatTimeLeft(23 * H + 59 * M)).toBe("23 hours 59 minutes");
    expect(formatTimeLeft(H + M)).toBe("1 hour 1 minute");
    expect(formatTimeLeft(59 * M + 8 * S)).toBe("59 minutes 8 seconds");
    expect(formatTimeLeft(999)).toBe("0 minutes 0 seconds");
  });

  it("says ended at and below zero", () => {
    expect(formatTimeLeft(0)).toBe("ended");
    expect(formatTimeLeft(-5)).toBe("ended");
  });
});

describe("describeTimeLeft", () => {
  it("reads as a sentence to the minute", () => {
    expect(describeTimeLeft(2 * D + 3 * H + 4 * M + 5 * S)).toBe("2 days, 3 hours and 4 minutes left.");
    expect(describeTimeLeft(H)).toBe("1 hour left.");
    expect(describeTimeLeft(D + 30 * S)).toBe("1 day left.");
    expect(describeTimeLeft(30 * S)).toBe("Less than a minute left.");
    expect(describeTimeLeft(0)).toBe("The rental has ended.");
  });
});
