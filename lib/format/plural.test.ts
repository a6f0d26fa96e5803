import { describe, expect, it } from "vitest";
import { plural } from "@/lib/format/plural";

describe("plural", () => {
  it("names one and many, with grouped digits", () => {
    expect(plural(1, "agent")).toBe("1 agent");
    expect(plural(0, "agent")).toBe("0 agents");
    expect(plural(1204, "agent")).toBe("1,204 agents");
    expect(plural(2, "reply", "replies")).toBe("2 replies");
  });
});
