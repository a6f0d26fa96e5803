import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { searchMarketplace } from "@/lib/agents/search-marketplace";
import { db } from "@/lib/db";
import {
  DEFAULT_MARKETPLACE_QUERY,
  MARKETPLACE_PAGE_SIZE,
  type MarketplaceSearchParams,
  parseMarketplaceQuery,
} from "@/lib/schemas/marketplace-query";
import { makeAgent } from "@/test/fixtures";
import { listedAgent, rentalsOf } from "@/test/marketplace-fixtures";

// Every agent here carries a unique token in its name and every search is narrowed by q=<token>,
// so agents of test files running in parallel never show up.
const token = `mkt${randomBytes(5).toString("hex")}`;
const pageToken = `pg${randomBytes(5).toString("hex")}`;

type Agent = Awaited<ReturnType<typeof makeAgent>>;
let alpha: Agent, beta: Agent, gamma: Agent, delta: Agent, offline: Agent, noWebhook: Agent;

const search = (params: MarketplaceSearchParams) => searchMarketplace(parseMarketplaceQuery({ q: token, ...params }));
const names = async (params: MarketplaceSearchParams) => (await search(params)).agents.map((a) => a.name.replace(`${token} `, ""));

beforeAll(async () => {
  // cheapest prices: Gamma 1.5 < Alpha 2 < Delta 3 < Beta 5; rentals (not pending): Gamma 4,
  // Delta 3, Alpha 2, Beta 1; ratings: Beta 5.0, Alpha 4.5, Delta 3.0, Gamma none.
  alpha = await listedAgent(
    {
      name: `${token} Alpha Coder`,
      description: "Looks over pull requests.",
      category: "coding",
      skills: ["code-review", "debugging"],
      channels: ["API", "Discord"],
      pricePerHour: 2,
      pricePerDay: 10,
      pricePerMonth: 100,
      pricePerMessage: 0.05,
    },
    "2026-01-01T00:00:00Z",
  );
  beta = await listedAgent(
    {
      name: `${token} Beta Review Writer`,
      description: "Writes landing pages.",
      category: "writing",
      skills: ["copywriting", "editing"],
      channels: ["Telegram"],
      pricePerDay: 5,
    },
    "2026-02-01T00:00:00Z",
  );
  gamma = await listedAgent(
    {
      name: `${token} Gamma Data`,
      description: "Answers questions with SQL.",
      category: "data",
      skills: ["sql", "analysis"],
      channels: ["API", "Slack"],
      pricePerHour: 1.5,
      pricePerMonth: 300,
      pricePerMessage: "0.01",
    },
    "2026-03-01T00:00:00Z",
  );
  delta = await listedAgent(
    {
      name: `${token} Delta Research`,
      description: "Finds sources and reviews papers_100%.",
      category: "research",
      channels: ["API"],
      pricePerHour: 3,
      pricePerDay: 20,
      pricePerMonth: 50,
    },
    "2026-04-01T00:00:00Z",
  );
  // Never listed: offline (webhook failing), and available but without a webhook.
  offline = await listedAgent(
    {
      name: `${token} Offline Coder`,
      description: "Down.",
      category: "coding",
      channels: ["API"],
      pricePerHour: 1,
      pricePerMessage: 0.001,
    },
    "2026-05-01T00:00:00Z",
  );
  await db.agent.update({ where: { id: offline.id }, data: { status: "offline" } });
  noWebhook = await makeAgent({
    listing: {
      name: `${token} Hookless Coder`,
      description: "No hook.",
      category: "coding",
      channels: ["API"],
      pricePerHour: 1,
    },
  });

  await rentalsOf(alpha, ["completed", "active", "pending"], [5, 4]);
  await rentalsOf(beta, ["completed"], [5]);
  await rentalsOf(gamma, ["completed", "completed", "active", "cancelled", "pending", "pending"]);
  await rentalsOf(delta, ["completed", "active", "disputed"], [3]);
  await rentalsOf(offline, ["completed", "completed", "completed", "completed", "completed"], [5, 5]);

  // 26 plain agents for pagination, with identical creation times (ties are broken by id).
  const at = new Date("2026-06-01T00:00:00Z");
  for (let i = 0; i < MARKETPLACE_PAGE_SIZE + 2; i++) {
    await listedAgent({ name: `${pageToken} Pager ${i}`, pricePerHour: 2, pricePerDay: 10, pricePerMonth: 100 }, at.toISOString());
  }
});

describe("searchMarketplace", () => {
  it("lists only available agents with a webhook, with their ratings and rental totals", async () => {
    const result = await search({});
    expect(result.total).toBe(4);
    expect(result.agents.map((a) => a.id).sort()).toEqual([alpha.id, beta.id, gamma.id, delta.id].sort());
    expect(result.agents.map((a) => a.id)).not.toContain(offline.id);
    expect(result.agents.map((a) => a.id)).not.toContain(noWebhook.id);
    const a = result.agents.find((x) => x.id === alpha.id)!;
    expect(a).toMatchObject({
      name: alpha.name,
      description: "Looks over pull requests.",
      category: "coding",
      skills: ["code-review", "debugging"],
      channels: ["API", "Discord"],
      prices: { hour: 2_000_000n, day: 10_000_000n, month: 100_000_000n },
      rating: { average: 4.5, count: 2 },
      totalRentals: 2, // the pending (unpaid) rental is not counted
      rentable: true,
      notRentableReason: null,
    });
    expect(a.createdAt).toEqual(new Date("2026-01-01T00:00:00Z"));
    const g = result.agents.find((x) => x.id === gamma.id)!;
    expect(g.prices).toEqual({ hour: 1_500_000n, day: null, month: 300_000_000n });
    expect([a.pricePerMessage, g.pricePerMessage]).toEqual([50_000n, 10_000n]);
    expect(result.agents.find((x) => x.id === beta.id)!.pricePerMessage).toBeNull();
    expect(g.rating).toEqual({ average: null, count: 0 });
    expect(g.totalRentals).toBe(4);
    // Nothing secret leaves the database.
    expect(JSON.stringify(result, (_k, v) => (typeof v === "bigint" ? v.toString() : v))).not.toMatch(/cipher|webhook/i);
  });

  it("searches name, description and skills: every word, case-insensitive, wildcards literal", async () => {
    expect(await names({ q: `${token} gamma` })).toEqual(["Gamma Data"]);
    expect(await names({ q: `${token} DEBUGGING` })).toEqual(["Alpha Coder"]); // a skill
    expect(await names({ q: `${token} landing` })).toEqual(["Beta Review Writer"]); // the description
    expect(await names({ q: `${token} code-rev` })).toEqual(["Alpha Coder"]); // part of a skill tag
    expect(await names({ q: `${token} gamma sql` })).toEqual(["Gamma Data"]);
    expect(await names({ q: `${token} gamma landing` })).toEqual([]); // both words must match
    expect((await searchMarketplace(parseMarketplaceQuery({ q: token.toUpperCase() }))).total).toBe(4);
    expect(await names({ q: `${token} papers_100%` })).toEqual(["Delta Research"]);
    expect(await names({ q: `${token} %` })).toEqual(["Delta Research"]); // "%" only in Delta's description
    expect(await names({ q: `${token} s_l` })).toEqual([]); // "_" is not a wildcard
    expect(await names({ q: `${token} nothing-like-this` })).toEqual([]);
  });

  it("forgives: a word of the same stem, a typo in a name or skill, ranked by how close", async () => {
    expect(await names({ q: `${token} answering` })).toEqual(["Gamma Data"]); // "Answers": the same stem
    expect(await names({ q: `${token} gamna` })).toEqual(["Gamma Data"]); // a typo of the name
    expect(await names({ q: `${token} debuging` })).toEqual(["Alpha Coder"]); // a typo of a skill
    expect(await names({ q: `${token} reserch` })).toEqual(["Delta Research"]);
    expect(await names({ q: `${token} code-reveiw` })).toEqual(["Alpha Coder"]); // a skill typed whole
    expect(await names({ q: `${token} summar` })).toEqual(["Delta Research"]); // the start of a skill (summarization)
    expect(await names({ q: `${token} gamna landing` })).toEqual([]); // still every word
    expect(await names({ q: `${token} xylophone` })).toEqual([]);
  });

  it("forgives one typo from 5 characters and two from 9, a swap of two letters counting as one", async () => {
    const own = `ty${randomBytes(5).toString("hex")}`;
    const words = ["Quill", "Parrot", "Lark", "Typewriters", "Scribes", "Scribbler"];
    const agents = [];
    for (const word of words) agents.push(await listedAgent({ name: `${own} ${word}`, pricePerDay: 1 }, "2026-01-01T00:00:00Z"));
    const found = async (typed: string) =>
      (await searchMarketplace(parseMarketplaceQuery({ q: `${own} ${typed}` }))).agents.map((a) => a.name.replace(`${own} `, ""));

    // 5 to 8 characters: one typo of any kind.
    expect(await found("parot"), "a letter left out").toEqual(["Parrot"]);
    expect(await found("laark"), "a letter added").toEqual(["Lark"]);
    expect(await found("quilk"), "a letter replaced").toEqual(["Quill"]);
    expect(await found("qiull"), "two letters swapped").toEqual(["Quill"]);
    expect(await found("scribler"), "8 characters, a letter left out").toEqual(["Scribbler"]);
    expect(await found("qiulk"), "a swap and a replacement: two typos").toEqual([]);
    expect(await found("scirbler"), "8 characters: a swap and a letter left out").toEqual([]);

    // 9 characters and more: two typos of any kind.
    expect(await found("typwriter"), "two letters left out").toEqual(["Typewriters"]);
    expect(await found("scrribees"), "two letters added").toEqual(["Scribes"]);
    expect(await found("scrobblar"), "two letters replaced").toEqual(["Scribbler"]);
    expect(await found("scirbbler"), "one swap").toEqual(["Scribbler"]);
    expect(await found("scirbbelr"), "two swaps").toEqual(["Scribbler"]);
    expect(await found("scirbbelrr"), "three typos").toEqual([]);

    // Under 5 characters a word must be spelled as listed (or be part of a word).
    expect(await found("lrak"), "4 characters, two letters swapped").toEqual([]);
    expect(await found("quil"), "4 characters, but the start of a word").toEqual(["Quill"]);
    expect(await found("qull"), "4 characters, a letter left out").toEqual([]);

    // A renamed listing's new words are forgiven at once (the database keeps the words).
    await db.agent.update({ where: { id: agents[2].id }, data: { name: `${own} Nightingale`, skills: ["birdsong"] } });
    expect(await found("nightingael"), "the new name").toEqual(["Nightingale"]);
    expect(await found("birdsnog"), "the new skill").toEqual(["Nightingale"]);
  });

  it("filters by category, skill and channel", async () => {
    expect(await names({ category: "coding" })).toEqual(["Alpha Coder"]); // the offline coder stays hidden
    expect(await names({ category: "finance" })).toEqual([]);
    expect(await names({ skill: "sql" })).toEqual(["Gamma Data"]);
    expect(await names({ skill: "web-search" })).toEqual(["Delta Research"]); // research's default skills
    expect(await names({ channel: "Slack" })).toEqual(["Gamma Data"]);
    expect(await names({ channel: "API", sort: "newest" })).toEqual(["Delta Research", "Gamma Data", "Alpha Coder"]);
    expect(await names({ channel: "API", category: "data", skill: "analysis" })).toEqual(["Gamma Data"]);
    expect(await names({ channel: "Telegram", category: "data" })).toEqual([]);
  });

  it("filters by duration: only agents with a price for it", async () => {
    expect(await names({ duration: "hour", sort: "newest" })).toEqual(["Delta Research", "Gamma Data", "Alpha Coder"]);
    expect(await names({ duration: "day", sort: "newest" })).toEqual(["Delta Research", "Beta Review Writer", "Alpha Coder"]);
    expect(await names({ duration: "month", sort: "newest" })).toEqual(["Delta Research", "Gamma Data", "Alpha Coder"]);
  });

  it("applies the price range to the chosen duration's price, or to the cheapest price", async () => {
    // Cheapest: Gamma 1.5, Alpha 2, Delta 3, Beta 5 (bounds inclusive).
    expect(await names({ minPrice: "2", maxPrice: "3", sort: "price-asc" })).toEqual(["Alpha Coder", "Delta Research"]);
    expect(await names({ maxPrice: "1.5" })).toEqual(["Gamma Data"]);
    expect(await names({ minPrice: "4.999999" })).toEqual(["Beta Review Writer"]);
    expect(await names({ minPrice: "5.000001" })).toEqual([]);
    // Per day: Beta 5, Alpha 10, Delta 20 (Gamma has no day price).
    expect(await names({ duration: "day", minPrice: "6", maxPrice: "25", sort: "price-asc" })).toEqual(["Alpha Coder", "Delta Research"]);
    // Per month: Delta 50, Alpha 100, Gamma 300: Delta's cheapest price (3) is not what counts.
    expect(await names({ duration: "month", minPrice: "60", sort: "price-asc" })).toEqual(["Alpha Coder", "Gamma Data"]);
    expect(await names({ duration: "month", maxPrice: "$50.00" })).toEqual(["Delta Research"]);
    // A reversed range is read the right way round.
    expect(await names({ minPrice: "3", maxPrice: "2", sort: "price-asc" })).toEqual(["Alpha Coder", "Delta Research"]);
  });

  it("filters the listings sold per message, at most a price per answer, beside every other filter", async () => {
    // Per message: Gamma 0.01, Alpha 0.05 (the offline coder's 0.001 stays hidden); Beta and Delta are not sold per message.
    expect(await names({ perMessage: "1", sort: "newest" })).toEqual(["Gamma Data", "Alpha Coder"]);
    expect(await names({ maxMessagePrice: "0.01" })).toEqual(["Gamma Data"]);
    expect(await names({ maxMessagePrice: "0.05", sort: "newest" })).toEqual(["Gamma Data", "Alpha Coder"]);
    expect(await names({ maxMessagePrice: "0.009999" })).toEqual([]);
    expect(await names({ perMessage: "1", channel: "Discord" })).toEqual(["Alpha Coder"]);
    // The rental prices' filters still read the rental prices: Alpha's cheapest is 2, Gamma's 1.5.
    expect(await names({ perMessage: "1", minPrice: "2" })).toEqual(["Alpha Coder"]);
    expect(await names({ perMessage: "1", duration: "day" })).toEqual(["Alpha Coder"]);
    // The total and the facets count the same listings.
    const result = await search({ perMessage: "1" });
    expect(result.total).toBe(2);
    expect(result.facets.categories.map((c) => [c.value, c.count]).sort()).toEqual([
      ["coding", 1],
      ["data", 1],
    ]);
  });

  it("sorts by price, rating, popularity, newest and relevance", async () => {
    expect(await names({ sort: "price-asc" })).toEqual(["Gamma Data", "Alpha Coder", "Delta Research", "Beta Review Writer"]);
    expect(await names({ sort: "price-desc" })).toEqual(["Beta Review Writer", "Delta Research", "Alpha Coder", "Gamma Data"]);
    expect(await names({ sort: "price-asc", duration: "day" })).toEqual(["Beta Review Writer", "Alpha Coder", "Delta Research"]);
    expect(await names({ sort: "price-desc", duration: "month" })).toEqual(["Gamma Data", "Alpha Coder", "Delta Research"]);
    expect(await names({ sort: "rating" })).toEqual(["Beta Review Writer", "Alpha Coder", "Delta Research", "Gamma Data"]);
    expect(await names({ sort: "popular" })).toEqual(["Gamma Data", "Delta Research", "Alpha Coder", "Beta Review Writer"]);
    expect(await names({ sort: "newest" })).toEqual(["Delta Research", "Gamma Data", "Beta Review Writer", "Alpha Coder"]);
    // Relevance: equal text matches fall back on popularity…
    expect(await names({ sort: "relevance" })).toEqual(["Gamma Data", "Delta Research", "Alpha Coder", "Beta Review Writer"]);
    expect(await names({})).toEqual(await names({ sort: "relevance" }));
    // …and a word in the name beats one in a skill tag, which beats one in the description,
    // whatever their popularity.
    expect(await names({ q: `${token} review` })).toEqual(["Beta Review Writer", "Alpha Coder", "Delta Research"]);
  });

  it("puts agents never rented or rated after the others", async () => {
    const own = `nr${randomBytes(5).toString("hex")}`;
    const fresh = await listedAgent(
      { name: `${own} Fresh`, description: "New.", category: "other", channels: ["API"], pricePerDay: 1 },
      "2026-07-01T00:00:00Z",
    );
    const used = await listedAgent(
      { name: `${own} Used`, description: "Old.", category: "other", channels: ["API"], pricePerDay: 1 },
      "2026-01-01T00:00:00Z",
    );
    await rentalsOf(used, ["completed"], [1]);
    for (const sort of ["popular", "rating", "relevance"]) {
      const result = await searchMarketplace(parseMarketplaceQuery({ q: own, sort }));
      expect(
        result.agents.map((a) => a.id),
        sort,
      ).toEqual([used.id, fresh.id]);
    }
    const newest = await searchMarketplace(parseMarketplaceQuery({ q: own, sort: "newest" }));
    expect(newest.agents.map((a) => a.id)).toEqual([fresh.id, used.id]);
  });

  it("counts facets with every other filter applied", async () => {
    const all = await search({});
    expect(all.facets.categories).toEqual([
      { value: "coding", count: 1 }, // the offline and webhook-less coders are not counted
      { value: "research", count: 1 },
      { value: "writing", count: 1 },
      { value: "data", count: 1 },
    ]);
    expect(all.facets.skills).toEqual(
      ["analysis", "citations", "code-review", "copywriting", "debugging", "editing", "sql", "summarization", "web-search"].map(
        (value) => ({ value, count: 1 }),
      ),
    );

    // A chosen category narrows the skills but still offers the other categories.
    const coding = await search({ category: "coding" });
    expect(coding.total).toBe(1);
    expect(coding.facets.categories.map((c) => c.value)).toEqual(["coding", "research", "writing", "data"]);
    expect(coding.facets.skills).toEqual([
      { value: "code-review", count: 1 },
      { value: "debugging", count: 1 },
    ]);

    // Other filters narrow both.
    const api = await search({ channel: "API", skill: "sql" });
    expect(api.total).toBe(1);
    expect(api.facets.categories).toEqual([{ value: "data", count: 1 }]);
    expect(api.facets.skills.map((s) => s.value)).toEqual([
      "analysis",
      "citations",
      "code-review",
      "debugging",
      "sql",
      "summarization",
      "web-search",
    ]);

    const none = await search({ q: `${token} nothing-like-this` });
    expect(none).toMatchObject({ total: 0, pageCount: 0, agents: [], facets: { categories: [], skills: [] } });
  });

  it("pages 24 at a time, in a stable order, without overlaps or gaps", async () => {
    const query = (page: string) => searchMarketplace(parseMarketplaceQuery({ q: pageToken, page }));
    const [first, second, third] = await Promise.all([query("1"), query("2"), query("3")]);
    expect(first).toMatchObject({ total: 26, page: 1, pageSize: 24, pageCount: 2 });
    expect(first.agents).toHaveLength(24);
    expect(second.agents).toHaveLength(2);
    expect(second).toMatchObject({ total: 26, page: 2 });
    expect(third).toMatchObject({ total: 26, page: 3, agents: [] });
    const ids = [...first.agents, ...second.agents].map((a) => a.id);
    expect(new Set(ids).size).toBe(26);
    // The same page twice is the same agents in the same order.
    expect((await query("1")).agents.map((a) => a.id)).toEqual(first.agents.map((a) => a.id));
    for (const sort of ["price-asc", "newest", "rating", "popular"]) {
      const p1 = await searchMarketplace(parseMarketplaceQuery({ q: pageToken, sort }));
      const p2 = await searchMarketplace(parseMarketplaceQuery({ q: pageToken, sort, page: "2" }));
      expect(new Set([...p1.agents, ...p2.agents].map((a) => a.id)).size, sort).toBe(26);
    }
  });

  it("ignores bad parameters instead of failing", async () => {
    const bad = {
      q: "   ",
      category: "nope",
      skill: "Not A Skill!",
      channel: "Email",
      minPrice: "-3",
      maxPrice: "lots",
      duration: "week",
      sort: "random",
      page: "0",
    };
    expect(parseMarketplaceQuery(bad)).toEqual(DEFAULT_MARKETPLACE_QUERY);
    expect(DEFAULT_MARKETPLACE_QUERY).toEqual({ sort: "relevance", page: 1 });
    const result = await search({ ...bad, q: token });
    expect(result.total).toBe(4);
    expect(await names({ category: "nope", sort: "random" })).toEqual(await names({}));
  });
});
