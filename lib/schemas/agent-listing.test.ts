import { describe, expect, it } from "vitest";
import { agentListingSchema } from "@/lib/schemas/agent-listing";

const valid = {
  name: "Summariser",
  description: "Summarises long documents.",
  category: "writing",
  channels: ["API", "Telegram", "API"],
  pricePerHour: 2.5,
};

const firstIssue = (input: unknown) => {
  const r = agentListingSchema.safeParse(input);
  return r.success ? null : `${r.error.issues[0].path.join(".")}: ${r.error.issues[0].message}`;
};

describe("agentListingSchema", () => {
  it("accepts a valid listing, converts prices to micro-USDC and de-duplicates channels", () => {
    const listing = agentListingSchema.parse(valid);
    expect(listing.pricePerHour).toBe(2_500_000n);
    expect(listing.pricePerDay).toBeUndefined();
    expect(listing.channels).toEqual(["API", "Telegram"]);
  });

  it("names the field that is wrong", () => {
    expect(firstIssue({ ...valid, name: "x" })).toMatch(/^name:/);
    expect(firstIssue({ ...valid, description: "" })).toMatch(/^description:/);
    expect(firstIssue({ ...valid, category: "nope" })).toMatch(/^category: must be one of assistant/);
    expect(firstIssue({ ...valid, channels: ["Email"] })).toMatch(/^channels/);
    expect(firstIssue({ ...valid, channels: [] })).toMatch(/^channels: must name at least one/);
    expect(firstIssue({ ...valid, skills: Array.from({ length: 9 }, (_, i) => `s${i}`) })).toMatch(/^skills: at most 8/);
    expect(firstIssue({ ...valid, skills: ["Not A Tag!"] })).toMatch(/^skills\.0:/);
    expect(firstIssue({ ...valid, pricePerHour: 0 })).toMatch(/^pricePerHour: must be more than 0/);
    expect(firstIssue({ ...valid, pricePerHour: 1.0000001 })).toMatch(/^pricePerHour: .*6 decimals/);
    expect(firstIssue({ ...valid, pricePerHour: null })).toMatch(/a price for at least one duration/);
  });

  it("says what is wrong with a price, at each edge of the rule (more than 0, at most 1,000,000, 6 decimals)", () => {
    const price = (pricePerHour: unknown) => firstIssue({ ...valid, pricePerHour });
    expect(price(-1)).toBe("pricePerHour: must not be negative");
    expect(price("-0.000001")).toBe("pricePerHour: must not be negative");
    expect(price(" -2.5 ")).toBe("pricePerHour: must not be negative");
    expect(price(-1e-7)).toBe("pricePerHour: must not be negative");
    expect(price(0)).toBe("pricePerHour: must be more than 0");
    expect(price("0.000000")).toBe("pricePerHour: must be more than 0");
    expect(agentListingSchema.parse({ ...valid, pricePerHour: "0.000001" }).pricePerHour).toBe(1n);
    expect(price("0.0000001")).toBe("pricePerHour: must have at most 6 decimals");
    expect(price(1.0000001)).toBe("pricePerHour: must have at most 6 decimals");
    expect(price(1e-7)).toBe("pricePerHour: must have at most 6 decimals");
    expect(agentListingSchema.parse({ ...valid, pricePerHour: 1_000_000 }).pricePerHour).toBe(1_000_000_000_000n);
    expect(price("1000000.000001")).toBe("pricePerHour: must be at most 1,000,000 USDC");
    expect(price("ten")).toBe("pricePerHour: must be a USDC amount such as 12.5");
    expect(price("12,5")).toBe("pricePerHour: must be a USDC amount such as 12.5");
    expect(price(true)).toBe("pricePerHour: must be a USDC amount such as 12.5");
  });

  // Found by the API fuzz (test/fuzz): PostgreSQL refuses NUL in text, so a NUL passed here was a 500.
  it("refuses control characters: none in a name, only line breaks and tabs in a description", () => {
    expect(firstIssue({ ...valid, name: "nul\u0000byte" })).toBe(
      "name: must not contain control characters (such as NUL, tab or a line break)",
    );
    expect(firstIssue({ ...valid, name: "two\nlines" })).toMatch(/^name: must not contain control characters/);
    expect(firstIssue({ ...valid, description: "a\u0000b" })).toMatch(
      /^description: must not contain control characters other than line breaks and tabs/,
    );
    expect(firstIssue({ ...valid, description: "a\u0007b" })).toMatch(/^description: must not contain control characters/);
    expect(agentListingSchema.parse({ ...valid, description: "Line one.\n\tLine two." }).description).toBe("Line one.\n\tLine two.");
    expect(agentListingSchema.parse({ ...valid, name: "日本語エージェント 🤖 — 24/7" }).name).toBe("日本語エージェント 🤖 — 24/7");
  });
});
