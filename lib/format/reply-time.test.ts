import { describe, expect, it } from "vitest";
import { formatReplyTime } from "./reply-time";

describe("formatReplyTime", () => {
  it("says milliseconds under a second and seconds with one decimal from there", () => {
    expect(formatReplyTime(0)).toBe("0 ms");
    expect(formatReplyTime(849.6)).toBe("850 ms");
    expect(formatReplyTime(999)).toBe("999 ms");
    expect(formatReplyTime(1000)).toBe("1.0 s");
    expect(formatReplyTime(1250)).toBe("1.3 s");
    expect(formatReplyTime(30_000)).toBe("30.0 s");
  });
});
