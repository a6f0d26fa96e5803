// The facet counts the database keeps (migration 20261126090000_marketplace_ranked_search_and_facet_counts)
// always equal a recount of the rentable agents, whatever happens to agents: inserts, status and
// webhook changes, category and skill edits, deletes. And the marketplace without a search reads
// them: the same facets as counting the listings. A database of this file's own, so the counts are
// of these agents only.
import { describe, expect, it } from "vitest";
import { searchMarketplace } from "@/lib/agents/search-marketplace";
import { db } from "@/lib/db";
import { type MarketplaceSearchParams, parseMarketplaceQuery } from "@/lib/schemas/marketplace-query";
import { makeAgent } from "@/test/fixtures";
import { listedAgent } from "@/test/marketplace-fixtures";
import { isolateDatabase } from "@/test/private-database";

isolateDatabase("facet_counts");

type Count = { category: string; skill: string; listings: number };

// Both in one statement, so one snapshot: the kept counts (zeros left out) and a recount.
async function keptAndRecounted(): Promise<{ kept: Count[]; recounted: Count[] }> {
  const [row] = await db.$queryRaw<{ kept: Count[] | null; recounted: Count[] | null }[]>`
    SELECT
      (SELECT json_agg(k ORDER BY k.category, k.skill) FROM (
         SELECT category, skill, listings FROM marketplace_facet_counts WHERE listings <> 0) k) AS "kept",
      (SELECT json_agg(r ORDER BY r.category, r.skill) FROM (
         SELECT a.category, s.skill, count(*)::int AS listings
         FROM agents a CROSS JOIN LATERAL (SELECT DISTINCT unnest(array_prepend('', a.skills)) AS skill) s
         WHERE a.status = 'available' AND a.webhook_url_cipher IS NOT NULL
         GROUP BY a.category, s.skill) r) AS "recounted"`;
  return { kept: row.kept ?? [], recounted: row.recounted ?? [] };
}

async function expectExact(): Promise<Count[]> {
  const { kept, recounted } = await keptAndRecounted();
  expect(kept).toEqual(recounted);
  return kept;
}

describe("marketplace facet counts", () => {
  it("follow agents through every change", async () => {
    const coder = await listedAgent({ category: "coding", skills: ["sql", "debugging"], pricePerDay: 1 }, "2026-01-01T00:00:00Z");
    const writer = await listedAgent({ category: "writing", skills: ["editing"], pricePerDay: 1 }, "2026-01-02T00:00:00Z");
    await makeAgent({ listing: { category: "coding", skills: ["sql"] } }); // no webhook: not rentable
    expect(await expectExact()).toEqual([
      { category: "coding", skill: "", listings: 1 },
      { category: "coding", skill: "debugging", listings: 1 },
      { category: "coding", skill: "sql", listings: 1 },
      { category: "writing", skill: "", listings: 1 },
      { category: "writing", skill: "editing", listings: 1 },
    ]);

    await db.agent.update({ where: { id: coder.id }, data: { status: "offline" } });
    await expectExact();
    await db.agent.update({ where: { id: coder.id }, data: { status: "available" } });
    await db.agent.update({ where: { id: writer.id }, data: { webhookUrlCipher: null } });
    await expectExact();
    await db.agent.update({ where: { id: writer.id }, data: { webhookUrlCipher: coder.webhookUrlCipher } });
    await db.agent.update({ where: { id: coder.id }, data: { category: "data", skills: ["sql", "sql", "analysis"] } });
    await db.agent.update({ where: { id: writer.id }, data: { name: "Renamed", webhookUrlCipher: coder.webhookUrlCipher } }); // no change
    expect(await expectExact()).toEqual([
      { category: "data", skill: "", listings: 1 },
      { category: "data", skill: "analysis", listings: 1 },
      { category: "data", skill: "sql", listings: 1 },
      { category: "writing", skill: "", listings: 1 },
      { category: "writing", skill: "editing", listings: 1 },
    ]);

    // Several rows in one statement, and deletes.
    await db.agent.updateMany({ data: { status: "offline" } });
    expect(await expectExact()).toEqual([]);
    await db.agent.updateMany({ data: { status: "available" } });
    await expectExact();
    await db.agent.delete({ where: { id: writer.id } });
    await expectExact();
  });

  it("are the facets of a page without a search: the same as counting the listings", async () => {
    await listedAgent({ category: "data", skills: ["sql", "charts"], pricePerDay: 1 }, "2026-02-01T00:00:00Z");
    await listedAgent({ category: "research", skills: ["web-search", "sql"], pricePerDay: 1 }, "2026-02-02T00:00:00Z");
    await expectExact();
    // Every listing here is on the API: with channel=API the facets are counted, not read.
    const kept = (params: MarketplaceSearchParams) => searchMarketplace(parseMarketplaceQuery(params));
    const counted = (params: MarketplaceSearchParams) => searchMarketplace(parseMarketplaceQuery({ ...params, channel: "API" }));
    for (const params of [{}, { category: "data" }, { skill: "sql" }, { category: "research", skill: "sql" }, { skill: "nowhere" }]) {
      const [read, count] = await Promise.all([kept(params), counted(params)]);
      expect({ total: read.total, facets: read.facets }, JSON.stringify(params)).toEqual({ total: count.total, facets: count.facets });
    }
    const all = await kept({});
    expect(all.total).toBe(all.facets.categories.reduce((sum, c) => sum + c.count, 0));
    expect((await kept({ skill: "sql" })).facets.categories).toEqual([
      { value: "research", count: 1 },
      { value: "data", count: 2 },
    ]);
  });
});
