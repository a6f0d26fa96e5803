import { describe, expect, it } from "vitest";
import {
  countMarketplaceFilters,
  DEFAULT_MARKETPLACE_QUERY,
  marketplaceHref,
  parseMarketplaceQuery,
  withoutBlankParams,
} from "@/lib/schemas/marketplace-query";

describe("parseMarketplaceQuery", () => {
  it("reads every field, trimming and normalising", () => {
    expect(
      parseMarketplaceQuery({
        q: "  code   review ",
        category: "coding",
        skill: "Code-Review",
        channel: "Slack",
        minPrice: "$1,000.5",
        maxPrice: "2000",
        duration: "month",
        sort: "price-desc",
        page: "3",
      }),
    ).toEqual({
      q: "code review",
      category: "coding",
      skill: "code-review",
      channel: "Slack",
      minPrice: 1_000_500_000n,
      maxPrice: 2_000_000_000n,
      duration: "month",
      sort: "price-desc",
      page: 3,
    });
  });

  it("drops each bad value on its own, keeping the good ones", () => {
    for (const page of ["-1", "2.5", "abc", "1001", "", "Infinity"]) expect(parseMarketplaceQuery({ page }).page, page).toBe(1);
    for (const price of ["-1", "1.0000001", "1e3", "12abc", "9999999999999999999999"]) {
      expect(parseMarketplaceQuery({ minPrice: price }).minPrice, price).toBeUndefined();
    }
    expect(parseMarketplaceQuery({ minPrice: "0" }).minPrice).toBe(0n);
    expect(parseMarketplaceQuery({ channel: "slack" }).channel).toBeUndefined(); // channels are case-sensitive names
    expect(parseMarketplaceQuery({ skill: "a".repeat(33) }).skill).toBeUndefined();
    expect(parseMarketplaceQuery({ q: "x".repeat(500) }).q).toHaveLength(100);
    expect(parseMarketplaceQuery({ category: "nope", skill: "sql", sort: "rating" })).toEqual({
      skill: "sql",
      sort: "rating",
      page: 1,
    });
  });

  it("reads the per-message filter: perMessage=1 (or true, on), and a max price per answer, which implies it", () => {
    for (const on of ["1", "true", "on", " 1 "]) expect(parseMarketplaceQuery({ perMessage: on }).perMessage, on).toBe(true);
    for (const off of ["0", "yes", "", "false"]) expect(parseMarketplaceQuery({ perMessage: off }).perMessage, off).toBeUndefined();
    expect(parseMarketplaceQuery({ maxMessagePrice: "0.05" })).toEqual({
      perMessage: true,
      maxMessagePrice: 50_000n,
      sort: "relevance",
      page: 1,
    });
    expect(parseMarketplaceQuery({ perMessage: "1", maxMessagePrice: "cheap" })).toEqual({ perMessage: true, sort: "relevance", page: 1 });
    expect(parseMarketplaceQuery({ maxMessagePrice: "-1" }).perMessage).toBeUndefined();
    const query = parseMarketplaceQuery({ maxMessagePrice: "$0.01", duration: "day" });
    const href = marketplaceHref(query);
    expect(href).toBe("/?duration=day&perMessage=1&maxMessagePrice=0.01");
    expect(parseMarketplaceQuery(new URLSearchParams(href.slice(2)))).toEqual(query);
    expect(marketplaceHref({ ...query, perMessage: undefined, maxMessagePrice: undefined })).toBe("/?duration=day");
    expect(countMarketplaceFilters(parseMarketplaceQuery({ perMessage: "1" }))).toBe(1);
    expect(countMarketplaceFilters(query)).toBe(3);
    expect(withoutBlankParams({ q: "echo", perMessage: "", maxMessagePrice: "" })).toBe("/?q=echo");
  });

  it("takes the first of repeated parameters, from a record or URLSearchParams", () => {
    expect(parseMarketplaceQuery({ category: ["data", "coding"], page: ["2", "5"] })).toMatchObject({
      category: "data",
      page: 2,
    });
    expect(parseMarketplaceQuery(new URLSearchParams("q=sql&q=x&duration=day&sort=newest"))).toEqual({
      q: "sql",
      duration: "day",
      sort: "newest",
      page: 1,
    });
  });

  it("builds canonical links that parse back to the same query", () => {
    expect(marketplaceHref(DEFAULT_MARKETPLACE_QUERY)).toBe("/");
    const query = parseMarketplaceQuery({
      q: "code review",
      category: "coding",
      minPrice: "2.5",
      maxPrice: "10",
      duration: "day",
      sort: "rating",
      page: "2",
    });
    const href = marketplaceHref(query);
    expect(href).toBe("/?q=code+review&category=coding&minPrice=2.5&maxPrice=10&duration=day&sort=rating&page=2");
    expect(parseMarketplaceQuery(new URLSearchParams(href.slice(2)))).toEqual(query);
    expect(marketplaceHref({ ...query, page: 1, category: undefined })).toBe(
      "/?q=code+review&minPrice=2.5&maxPrice=10&duration=day&sort=rating",
    );
  });

  it("counts the filters set beside the search words (not the words, the sort or the page)", () => {
    expect(countMarketplaceFilters(DEFAULT_MARKETPLACE_QUERY)).toBe(0);
    expect(countMarketplaceFilters(parseMarketplaceQuery({ q: "echo", sort: "newest", page: "2" }))).toBe(0);
    expect(countMarketplaceFilters(parseMarketplaceQuery({ category: "coding", channel: "API", minPrice: "0", duration: "day" }))).toBe(4);
  });
});

describe("withoutBlankParams", () => {
  it("leaves the blank parameters of a form sent without JavaScript out, and keeps the rest as they came", () => {
    const sent = { q: "echo", category: "", skill: "", channel: "API", minPrice: " ", maxPrice: "", duration: "", sort: "" };
    expect(withoutBlankParams(sent)).toBe("/?q=echo&channel=API");
    expect(withoutBlankParams({ q: "", category: "" })).toBe("/");
    expect(withoutBlankParams({ q: "a b", utm_source: "mail", tag: ["x", ""] })).toBe("/?q=a+b&utm_source=mail&tag=x");
  });

  it("is null for a URL with nothing blank, so the page answers it as it is", () => {
    expect(withoutBlankParams({})).toBeNull();
    expect(withoutBlankParams({ q: "echo", sort: "relevance", page: "2" })).toBeNull();
  });
});
