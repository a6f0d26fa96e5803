// The marketplace's filter form as the server renders it: on a phone a "Filters" disclosure that
// says how many filters are set; the default order as a blank value, which the form leaves out
// of the URL; and the pages' links with only the parameters that have a value.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { parseMarketplaceQuery } from "@/lib/schemas/marketplace-query";
import { MarketplaceFilters } from "./marketplace-filters";
import { Pagination } from "./pagination";

const facets = { categories: [{ value: "coding", count: 3 }], skills: [{ value: "sql", count: 2 }] };
const render = (params: Record<string, string>) =>
  renderToStaticMarkup(createElement(MarketplaceFilters, { query: parseMarketplaceQuery(params), facets, filtered: true }));

describe("MarketplaceFilters", () => {
  it("puts the filters behind a Filters disclosure that counts the ones set", () => {
    expect(render({})).toMatch(/<details class="[^"]*"><summary class="button [^"]*">Filters<\/summary>/);
    const html = render({ q: "echo", category: "coding", skill: "sql", sort: "newest" });
    expect(html).toMatch(/<summary class="button [^"]*">Filters \(2 active\)<\/summary>/);
    // The search box stays outside the disclosure, on the first screen.
    expect(html.indexOf('name="q"')).toBeLessThan(html.indexOf("<details"));
    expect(html.indexOf('name="category"')).toBeGreaterThan(html.indexOf("<details"));
  });

  it("offers the per-message filter, counted like the others, with its values kept", () => {
    const none = render({});
    expect(none).toContain('<select id="filter-per-message" name="perMessage" aria-describedby="filter-per-message-hint">');
    expect(none).toContain('<option value="" selected="">Any listing</option>');
    expect(none).toContain('name="maxMessagePrice"');
    const html = render({ category: "coding", perMessage: "1", maxMessagePrice: "0.05" });
    expect(html).toMatch(/<summary class="button [^"]*">Filters \(3 active\)<\/summary>/);
    expect(html).toContain('<option value="1" selected="">Only those sold per message</option>');
    expect(html).toMatch(/name="maxMessagePrice"[^>]*value="0\.05"/);
    expect(html).toContain("Some agents also answer single messages without a rental");
  });

  it("sends the default order as a blank value (left out of the URL), the others by name", () => {
    const html = render({});
    expect(html).toContain('<option value="" selected="">Best match</option>');
    expect(html).toContain('<option value="newest">Newest</option>');
    expect(render({ sort: "newest" })).toContain('<option value="newest" selected="">Newest</option>');
  });
});

describe("Pagination", () => {
  it("links each page with only the parameters that have a value", () => {
    const query = parseMarketplaceQuery({ q: "echo", category: "", skill: "", channel: "API", sort: "", page: "2" });
    const links = [...renderToStaticMarkup(createElement(Pagination, { query, pageCount: 3 })).matchAll(/href="([^"]*)"/g)].map((m) =>
      m[1].replaceAll("&amp;", "&"),
    );
    expect(links).toEqual([
      "/?q=echo&channel=API",
      "/?q=echo&channel=API",
      "/?q=echo&channel=API&page=2",
      "/?q=echo&channel=API&page=3",
      "/?q=echo&channel=API&page=3",
    ]);
  });
});
