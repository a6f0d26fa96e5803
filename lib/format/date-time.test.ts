import { describe, expect, it } from "vitest";
import { formatClock, formatDate, formatDateTime } from "@/lib/format/date-time";

describe("dates", () => {
  it("shows one locale, in UTC, and says so", () => {
    const at = new Date("2026-11-23T23:30:00Z");
    expect(formatDateTime(at)).toBe("23 Nov 2026, 23:30 UTC");
    expect(formatDate(at)).toBe("23 Nov 2026 (UTC)");
  });

  it("does not move with the machine's time zone: a moment past midnight UTC is the next day", () => {
    expect(formatDate(new Date("2026-12-31T23:59:59Z"))).toBe("31 Dec 2026 (UTC)");
    expect(formatDate(new Date("2027-01-01T00:00:00Z"))).toBe("1 Jan 2027 (UTC)");
  });

  it("shows a minute of the UTC clock, with its day when asked", () => {
    expect(formatClock(new Date("2026-11-23T07:04:59Z"))).toBe("07:04");
    expect(formatClock(new Date("2026-11-24T00:00:00Z"))).toBe("00:00");
    expect(formatClock(new Date("2026-11-23T23:30:00Z"), true)).toBe("23 Nov, 23:30");
  });
});
