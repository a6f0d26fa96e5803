import { describe, expect, it } from "vitest";
import { categoryLabel } from "@/lib/format/category";

describe("categoryLabel", () => {
  it("capitalises the stored category", () => {
    expect(categoryLabel("coding")).toBe("Coding");
    expect(categoryLabel("other")).toBe("Other");
  });
});
