// `npm run bench:marketplace` (and part of `npm run bench`): the marketplace's server time at
// scale. Seeds a database of its own with COPY-free generate_series (100,000 agents and 1,000,000
// rentals by default; BENCH_AGENTS / BENCH_RENTALS), then times searchMarketplace — the whole page
// query, facets and the page's figures — for every sort and a search, and prints p50/p95 (and the
// first, "cold" request, which counts the facets the others find cached) and the query plans. Smaller sizes (a tenth, a hundredth) show how the cost grows. Asserts
// nothing; the figures feed BENCH_JSON (bench/run.ts).
import { spawnSync } from "node:child_process";
import pg from "pg";
import { applyMigrations } from "../scripts/apply-migrations";
import { tsNodeArgs } from "../scripts/node-args";
import { recordFigures } from "./figures";

const ADMIN_URL = process.env.BENCH_DATABASE_ADMIN_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const AGENTS = Number(process.env.BENCH_MARKET_AGENTS ?? 100_000);
const RENTALS = Number(process.env.BENCH_MARKET_RENTALS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_MARKETPLACE_RUNS ?? 30);
const SORTS = ["relevance", "popular", "rating", "newest", "price-asc", "price-desc"] as const;

export type MarketplaceFigures = { agents: number; rentals: number; p95: Record<string, number>; worstP95: number };

async function freshDatabase(name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = Object.assign(new URL(ADMIN_URL), { pathname: `/${name}` }).toString();
  await applyMigrations(url);
  return url;
}

// Listings with names, descriptions and skills drawn from a small vocabulary (so searches match a
// realistic share), 1 owner per 100 agents, rentals spread unevenly (some agents popular), and
// ratings on a tenth of the rentals. Counters, facet counts and the words typos are looked for in
// are computed once after the load (the triggers are off during it: a million single-row updates
// would only measure the seeding).
async function seed(url: string, agents: number, rentals: number): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const started = performance.now();
  await client.query(
    "ALTER TABLE agents DISABLE TRIGGER USER; ALTER TABLE rentals DISABLE TRIGGER USER; ALTER TABLE ratings DISABLE TRIGGER USER",
  );
  await client.query(
    `
    INSERT INTO accounts (id, email, display_name)
    SELECT gen_random_uuid(), 'owner' || i || '@bench.example', 'Owner ' || i FROM generate_series(1, GREATEST(1, $1::int / 100)) i`,
    [agents],
  );
  await client.query(
    `
    WITH words AS (SELECT ARRAY['Echo','Research','Code','Review','Summary','Translate','Chat','Data','Support','Writer',
                                'Finance','Market','Legal','Travel','Health','Study','Design','Sales','Docs','Voice'] AS w),
         owners AS (SELECT array_agg(id) AS ids FROM accounts)
    INSERT INTO agents (id, owner_id, name, description, category, skills, channels, price_per_hour, price_per_day, price_per_month,
                        status, webhook_url_cipher, webhook_token_cipher, created_at, updated_at)
    SELECT gen_random_uuid(), owners.ids[1 + i % array_length(owners.ids, 1)],
           w[1 + i % 20] || ' ' || w[1 + (i / 20) % 20] || ' ' || i,
           'Helps with ' || lower(w[1 + (i / 7) % 20]) || ' and ' || lower(w[1 + (i / 3) % 20]) || ' tasks, quickly and politely.',
           (ARRAY['assistant','coding','research','writing','data','marketing','support','finance','other'])[1 + i % 9],
           ARRAY[lower(w[1 + i % 20]), lower(w[1 + (i / 5) % 20]) || '-help'],
           ARRAY['API','Telegram']::"Channel"[],
           CASE WHEN i % 3 = 0 THEN NULL ELSE (1 + i % 50) * 100000 END, (5 + i % 40) * 1000000, (50 + i % 400) * 1000000,
           CASE WHEN i % 10 = 0 THEN 'offline' ELSE 'available' END::"AgentStatus", 'bench', 'bench',
           now() - (i || ' seconds')::interval, now()
    FROM generate_series(1, $1::int) i, words, owners`,
    [agents],
  );
  await client.query(
    `
    WITH ids AS (SELECT array_agg(id ORDER BY created_at) AS ids FROM agents)
    INSERT INTO rentals (id, escrow_id, session_key, agent_id, status, duration_type, channel, starts_at, ends_at,
                         price_micro_usdc, fee_micro_usdc, created_at, updated_at)
    SELECT gen_random_uuid(), '0x' || md5(i::text) || md5((i + 1)::text), md5(i::text),
           -- a skewed pick: low indexes (the popular agents) come up far more often
           ids.ids[1 + floor(power(random(), 3) * array_length(ids.ids, 1))::int],
           (ARRAY['completed','completed','completed','active','cancelled','pending'])[1 + i % 6]::"RentalStatus",
           'hour', 'API', now() - interval '2 hours', now() - interval '1 hour', 1000000, 1000000, now(), now()
    FROM generate_series(1, $1::int) i, ids`,
    [rentals],
  );
  await client.query(`
    INSERT INTO ratings (id, rental_id, agent_id, score, created_at)
    SELECT gen_random_uuid(), r.id, r.agent_id, 1 + abs(hashtext(r.id::text)) % 5, now()
    FROM rentals r WHERE r.status = 'completed' AND abs(hashtext(r.id::text)) % 10 = 0`);
  await client.query(`
    UPDATE agents a SET rental_count = c.n FROM (SELECT agent_id, count(*) AS n FROM rentals WHERE status <> 'pending' GROUP BY agent_id) c
    WHERE c.agent_id = a.id;
    UPDATE agents a SET rating_count = c.n, rating_sum = c.s FROM (SELECT agent_id, count(*) AS n, sum(score) AS s FROM ratings GROUP BY agent_id) c
    WHERE c.agent_id = a.id;
    INSERT INTO marketplace_facet_counts (category, skill, listings)
    SELECT a.category, s.skill, count(*) FROM agents a CROSS JOIN LATERAL (SELECT DISTINCT unnest(array_prepend('', a.skills)) AS skill) s
    WHERE a.status = 'available' AND a.webhook_url_cipher IS NOT NULL GROUP BY a.category, s.skill;
    INSERT INTO marketplace_words (word) SELECT DISTINCT unnest(typo_words) FROM agents ON CONFLICT DO NOTHING;
    ALTER TABLE agents ENABLE TRIGGER USER; ALTER TABLE rentals ENABLE TRIGGER USER; ALTER TABLE ratings ENABLE TRIGGER USER;`);
  for (const table of ["agents", "rentals", "ratings", "marketplace_facet_counts", "marketplace_words"])
    await client.query(`VACUUM ANALYZE ${table}`);
  console.log(
    `  seeded ${agents.toLocaleString("en")} agents, ${rentals.toLocaleString("en")} rentals in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  await client.end();
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

/** Seeds a database of `agents` and `rentals`, times every sort and a search; prints and returns the p95s. */
export async function benchMarketplace(agents = AGENTS, rentals = RENTALS, options: { plans?: boolean } = {}): Promise<MarketplaceFigures> {
  const url = await freshDatabase(`ars_bench_market_${agents}`);
  await seed(url, agents, rentals);
  process.env.DATABASE_URL = url;
  const { searchMarketplace } = await import("@/lib/agents/search-marketplace");
  const { parseMarketplaceQuery } = await import("@/lib/schemas/marketplace-query");
  const { db } = await import("@/lib/db");
  const cases: Record<string, Record<string, string>> = Object.fromEntries(SORTS.map((sort) => [sort, { sort }]));
  cases["search 'research'"] = { q: "research" };
  cases["search 'reserch' (typo)"] = { q: "reserch" };
  cases["category + sort popular"] = { category: "coding", sort: "popular" };
  const p95: Record<string, number> = {};
  // The process's first request opens the connections and loads the code: not any case's "cold".
  // (Unfiltered, so it reads the kept facet counts and caches nothing another case could use.)
  await searchMarketplace(parseMarketplaceQuery(new URLSearchParams({ sort: "newest", page: "2" })));
  console.log(
    `\nMarketplace at ${agents.toLocaleString("en")} agents, ${rentals.toLocaleString("en")} rentals (${RUNS} runs each, server time of the whole page):`,
  );
  for (const [name, params] of Object.entries(cases)) {
    const query = parseMarketplaceQuery(new URLSearchParams(params));
    // The first request counts the facets (then kept for MARKETPLACE_FACETS_TTL_MS): "cold".
    const coldStart = performance.now();
    await searchMarketplace(query);
    const cold = performance.now() - coldStart;
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const t = performance.now();
      await searchMarketplace(query);
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    p95[name] = Math.round(percentile(times, 95) * 10) / 10;
    console.log(
      `  ${name.padEnd(28)} p50 ${percentile(times, 50).toFixed(1).padStart(7)} ms   p95 ${p95[name].toFixed(1).padStart(7)} ms   cold ${cold.toFixed(1).padStart(7)} ms`,
    );
  }
  if (options.plans) await printPlans(url);
  if (options.plans) await printSearchPlans();
  await db.$disconnect();
  return { agents, rentals, p95, worstP95: Math.max(...Object.values(p95)) };
}

// The plans of the page query for the default sort and a search, as PostgreSQL runs them.
async function printPlans(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const rentable = "a.status = 'available' AND a.webhook_url_cipher IS NOT NULL";
  const plans: Record<string, string> = {
    "page, sort popular": `SELECT a.id FROM agents a WHERE ${rentable}
      ORDER BY a.rental_count DESC, (a.rating_sum::float8 / NULLIF(a.rating_count, 0)) DESC NULLS LAST, a.rating_count DESC, a.created_at DESC, a.id LIMIT 24`,
    "page, sort newest": `SELECT a.id FROM agents a WHERE ${rentable} ORDER BY a.created_at DESC, a.id LIMIT 24`,
  };
  for (const [name, sql] of Object.entries(plans)) {
    const { rows } = await client.query(`EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY ON) ${sql}`);
    console.log(`\n  plan: ${name}\n${rows.map((r) => `    ${r["QUERY PLAN"]}`).join("\n")}`);
  }
  await client.end();
}

// The plans of what a search by relevance and a page without filters run, through the app's own
// statements (the database client's parameters, so the plans a request gets).
async function printSearchPlans(): Promise<void> {
  const { db } = await import("@/lib/db");
  const { Prisma } = await import("@/lib/generated/prisma/client");
  const { searchTerms, termMatches } = await import("@/lib/agents/marketplace-search-terms");
  const { rankedCandidates } = await import("@/lib/agents/rank-search-page");
  const { keptFacetsSql } = await import("@/lib/agents/count-marketplace-facets");
  const rentable = Prisma.sql`a.status = 'available' AND a.webhook_url_cipher IS NOT NULL`;
  const search = async (q: string) => {
    const terms = await searchTerms(q);
    return rankedCandidates(Prisma.join([rentable, ...terms.map(termMatches)], " AND "), q, terms);
  };
  const plans: Record<string, InstanceType<typeof Prisma.Sql>> = {
    "search 'research', relevance: the ranked candidates": await search("research"),
    "search 'reserch' (typo), relevance: the ranked candidates": await search("reserch"),
    "facets without filters (the kept counts)": keptFacetsSql({}),
  };
  for (const [name, sql] of Object.entries(plans)) {
    const rows = await db.$queryRaw<{ "QUERY PLAN": string }[]>`EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY ON) ${sql}`;
    console.log(`\n  plan: ${name}\n${rows.map((r) => `    ${r["QUERY PLAN"]}`).join("\n")}`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  // How the cost grows: a hundredth and a tenth of the size first, then the goal's size with plans.
  // Each smaller size runs in a process of its own (the database client is one per process);
  // BENCH_MARKET_GROWTH=0 skips them.
  if (process.env.BENCH_MARKET_GROWTH !== "0") {
    for (const share of [100, 10]) {
      spawnSync(process.execPath, tsNodeArgs("bench/marketplace.ts", [], { reactServer: true }), {
        stdio: "inherit",
        env: {
          ...process.env,
          BENCH_MARKET_GROWTH: "0",
          BENCH_MARKET_PLANS: "0",
          BENCH_MARKET_RECORD: "0",
          BENCH_MARKET_AGENTS: String(Math.round(AGENTS / share)),
          BENCH_MARKET_RENTALS: String(Math.round(RENTALS / share)),
        },
      });
    }
  }
  const full = await benchMarketplace(AGENTS, RENTALS, { plans: process.env.BENCH_MARKET_PLANS !== "0" });
  if (process.env.BENCH_MARKET_RECORD !== "0") recordFigures({ marketplace_p95_ms: full.worstP95 });
  process.exit(0);
}
