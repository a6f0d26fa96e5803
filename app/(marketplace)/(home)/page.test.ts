// The marketplace page sends a URL with blank parameters (a filter form sent without JavaScript
// names every field) on to the same URL without them, before it searches.
import { describe, expect, it } from "vitest";
import { redirectOf } from "@/test/dashboard-session";

const { default: MarketplacePage } = await import("@/app/(marketplace)/(home)/page");

describe("the marketplace page", () => {
  it("redirects a URL with blank parameters to the one without them", async () => {
    const sent = { q: "echo", category: "", skill: "", channel: "API", minPrice: "", maxPrice: "", duration: "", sort: "" };
    expect(await redirectOf(MarketplacePage({ searchParams: Promise.resolve(sent) }))).toBe("/?q=echo&channel=API");
    expect(await redirectOf(MarketplacePage({ searchParams: Promise.resolve({ q: "", sort: "" }) }))).toBe("/");
  });

  it("answers a URL without blank parameters itself", async () => {
    await expect(MarketplacePage({ searchParams: Promise.resolve({ q: "nothing-listed-by-this-name" }) })).resolves.toBeTruthy();
  });
});
