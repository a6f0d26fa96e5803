// A search with more matches than relevance ranks (RANKED_CANDIDATES): the best name match is
// first even when renters chose it least, and the pages after the ranked candidates go on with
// every other match, most chosen first, without overlaps or gaps.
import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { RANKED_CANDIDATES } from "@/lib/agents/rank-search-page";
import { searchMarketplace } from "@/lib/agents/search-marketplace";
import { db } from "@/lib/db";
import { MARKETPLACE_PAGE_SIZE, parseMarketplaceQuery } from "@/lib/schemas/marketplace-query";
import { makeOwner } from "@/test/fixtures";

// Random, yet sharing no trigram with the other listings' names and skills ("Helper 104 general"):
// letters none of those words has, and no digits. A token holding "104" would share the trigram
// "104" with "Helper 104", whose closeness score (word similarity) would then rank it first.
const LETTERS = "bcdfijkmoqstuvwx";
const token = `rk${[...randomBytes(10)].map((b) => LETTERS[b % LETTERS.length]).join("")}z`;
const others = RANKED_CANDIDATES + 30;
let named: string;

beforeAll(async () => {
  const owner = await makeOwner();
  // Listings that have the word in their description only, newer (so chosen "more": no rentals,
  // and the popular order ends on the newest) than the one that has it in its name.
  await db.$executeRaw`
    INSERT INTO agents (id, owner_id, name, description, category, skills, channels, price_per_day, status,
                        webhook_url_cipher, webhook_token_cipher, created_at, updated_at)
    SELECT gen_random_uuid(), ${owner.id}::uuid, 'Helper ' || i, 'Helps with ' || ${token} || ' tasks.', 'other', ARRAY['general'],
           ARRAY['API']::"Channel"[], 1000000, 'available', 'test', 'test', '2026-06-01'::timestamptz + i * interval '1 minute', now()
    FROM generate_series(1, ${others}::int) i`;
  const [row] = await db.$queryRaw<{ id: string }[]>`
    INSERT INTO agents (id, owner_id, name, description, category, skills, channels, price_per_day, status,
                        webhook_url_cipher, webhook_token_cipher, created_at, updated_at)
    VALUES (gen_random_uuid(), ${owner.id}::uuid, ${`${token} Agent`}, 'Named for it.', 'other', ARRAY['general'],
            ARRAY['API']::"Channel"[], 1000000, 'available', 'test', 'test', '2025-01-01', now())
    RETURNING id::text AS id`;
  named = row.id;
});

describe("relevance over more matches than it ranks", () => {
  const page = (n: number) => searchMarketplace(parseMarketplaceQuery({ q: token, page: String(n) }));

  it("puts the best name match first, though chosen least", async () => {
    const first = await page(1);
    expect(first.total).toBe(others + 1);
    expect(first.agents[0].id).toBe(named);
    expect((await searchMarketplace(parseMarketplaceQuery({ q: token, sort: "popular" }))).agents.map((a) => a.id)).not.toContain(named);
  });

  it("pages through every match once, the unranked ones most chosen (here newest) first", async () => {
    const pageCount = Math.ceil((others + 1) / MARKETPLACE_PAGE_SIZE);
    const pages = await Promise.all(Array.from({ length: pageCount + 1 }, (_, i) => page(i + 1)));
    const ids = pages.flatMap((p) => p.agents.map((a) => a.id));
    expect(ids).toHaveLength(others + 1);
    expect(new Set(ids).size).toBe(others + 1);
    expect(pages[pageCount].agents).toEqual([]);
    // After the name match, the description matches are equally relevant: newest first, across
    // the end of the ranked candidates too.
    const created = pages.flatMap((p) => p.agents.slice(p.page === 1 ? 1 : 0).map((a) => a.createdAt.getTime()));
    expect(created).toEqual([...created].sort((a, b) => b - a));
  });
});
