import { describe, expect, it } from "vitest";
import { constantTimeEqual } from "@/lib/crypto/constant-time-equal";

describe("constantTimeEqual", () => {
  it("is true only for identical strings", () => {
    expect(constantTimeEqual("s3cret-token", "s3cret-token")).toBe(true);
    expect(constantTimeEqual("", "")).toBe(true);
    expect(constantTimeEqual("s3cret-token", "s3cret-tokeN")).toBe(false);
    expect(constantTimeEqual("s3cret-token", "s3cret-token ")).toBe(false);
    expect(constantTimeEqual("", "x")).toBe(false);
    expect(constantTimeEqual("é", "e\u0301")).toBe(false); // no normalisation: bytes must match
  });

  it("accepts inputs of different lengths without throwing (timingSafeEqual alone would)", () => {
    expect(() => constantTimeEqual("short", "a much longer candidate value")).not.toThrow();
  });
});
