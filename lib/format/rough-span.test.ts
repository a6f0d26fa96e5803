import { describe, expect, it } from "vitest";
import { formatRoughSpan } from "@/lib/format/rough-span";

const MINUTE = 60_000;

describe("formatRoughSpan", () => {
  it("says a reminder's lead in one unit, rounded", () => {
    expect(formatRoughSpan(10 * MINUTE)).toBe("10 minutes");
    expect(formatRoughSpan(10 * MINUTE - 20_000)).toBe("10 minutes");
    expect(formatRoughSpan(60 * MINUTE)).toBe("1 hour");
    expect(formatRoughSpan(59 * MINUTE + 40_000)).toBe("1 hour");
    expect(formatRoughSpan(24 * 60 * MINUTE)).toBe("1 day");
    expect(formatRoughSpan(24 * 60 * MINUTE - MINUTE)).toBe("1 day");
    expect(formatRoughSpan(3 * 60 * MINUTE)).toBe("3 hours");
  });

  it("never says less than a minute", () => {
    expect(formatRoughSpan(5_000)).toBe("1 minute");
    expect(formatRoughSpan(0)).toBe("1 minute");
  });
});
