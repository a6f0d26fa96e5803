// `npm run bench`, second part: one health-check sweep (lib/agents/run-health-checks.ts) over
// 10,000 agents pointed at a local mock webhook fleet, in a fresh database on the real PostgreSQL.
// ~94% of webhooks answer 200, 5% answer 500 and 1% hang past the timeout. Prints wall time,
// checks per second, peak memory and the run's summary; asserts nothing.
// BENCH_AGENTS (10000) and BENCH_HEALTH_TIMEOUT_MS (2000) change the fleet and the timeout.
import { randomBytes, randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import pg from "pg";
import { applyMigrations } from "../scripts/apply-migrations";
import { recordFigures } from "./figures";

const AGENTS = Number(process.env.BENCH_AGENTS ?? 10_000);
const ADMIN_URL = process.env.BENCH_DATABASE_ADMIN_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const SERVERS = 4;
const OWNERS = 100;

const admin = new pg.Client({ connectionString: ADMIN_URL });
await admin.connect();
await admin.query("DROP DATABASE IF EXISTS ars_bench_health WITH (FORCE)");
await admin.query("CREATE DATABASE ars_bench_health");
await admin.end();
const dbUrl = Object.assign(new URL(ADMIN_URL), { pathname: "/ars_bench_health" }).toString();
await applyMigrations(dbUrl);

// Read by lib/env when the modules below load.
process.env.DATABASE_URL = dbUrl;
process.env.ALLOW_PRIVATE_WEBHOOKS = "1";
process.env.SECRET_BOX_KEYS = `bench:${randomBytes(32).toString("base64")}`;
process.env.HEALTH_CHECK_TIMEOUT_MS = process.env.BENCH_HEALTH_TIMEOUT_MS ?? "2000";
process.env.RESEND_API_KEY = ""; // never mail real people from a benchmark: the outbox it is
const { db } = await import("@/lib/db");
const { env } = await import("@/lib/env");
const { sealWebhookCredentials } = await import("@/lib/agents/webhook-credentials");
const { runHealthChecks } = await import("@/lib/agents/run-health-checks");

// The fleet: a few plain servers, the path decides the behaviour.
const fleet = await Promise.all(
  Array.from({ length: SERVERS }, async () => {
    const server = http.createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        if (req.url === "/hang") return; // never answers; the check times out and drops the socket
        res.writeHead(req.url === "/fail" ? 500 : 200, { "content-type": "application/json" }).end('{"ok":true}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
  }),
);
const behaviour = (i: number) => (i % 100 === 99 ? "hang" : i % 20 === 0 ? "fail" : "ok");

const seedStarted = performance.now();
const owners = Array.from({ length: OWNERS }, (_, n) => ({ id: randomUUID(), email: `bench-owner-${n}@example.com` }));
await db.account.createMany({ data: owners });
const token = randomBytes(32).toString("base64url");
for (let start = 0; start < AGENTS; start += 1_000) {
  const rows = Array.from({ length: Math.min(1_000, AGENTS - start) }, (_, k) => {
    const i = start + k;
    const id = randomUUID();
    const url = `${fleet[i % SERVERS].base}/${behaviour(i)}`;
    return {
      id,
      ownerId: owners[i % OWNERS].id,
      name: `Bench Agent ${i}`,
      description: "Health-check benchmark agent.",
      category: "other",
      channels: ["API" as const],
      pricePerHour: 1_000_000n,
      status: "available" as const,
      ...sealWebhookCredentials(id, { url, token }),
    };
  });
  await db.agent.createMany({ data: rows });
}
const seedMs = performance.now() - seedStarted;

// Peak memory, sampled while the sweep runs; the level at its start (after seeding in this same
// process) is printed beside it.
const atStart = process.memoryUsage();
let peakRss = atStart.rss;
let peakHeap = atStart.heapUsed;
const sample = () => {
  const { rss, heapUsed } = process.memoryUsage();
  peakRss = Math.max(peakRss, rss);
  peakHeap = Math.max(peakHeap, heapUsed);
};
const sampler = setInterval(sample, 50);

// The outbox prints every e-mail; hundreds of them would bury the figures.
const log = console.log;
console.log = () => {};
const started = performance.now();
const summary = await runHealthChecks();
const wallMs = performance.now() - started;
console.log = log;
clearInterval(sampler);
sample();

const [emails, checks] = await Promise.all([db.email.count(), db.healthCheck.count()]);
for (const { server } of fleet) {
  server.closeAllConnections();
  server.close();
}
await db.$disconnect();

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
console.log(
  `\nHealth-check sweep: ${AGENTS} agents, ${SERVERS} mock webhook servers (~94% 200, 5% 500, 1% hang), ` +
    `concurrency ${env.HEALTH_CHECK_CONCURRENCY}, timeout ${env.HEALTH_CHECK_TIMEOUT_MS} ms, database pool ${env.DATABASE_POOL_MAX}\n`,
);
console.table([
  {
    "seed s": (seedMs / 1000).toFixed(1),
    "wall s": (wallMs / 1000).toFixed(2),
    "checks/s": Math.round(summary.checked / (wallMs / 1000)),
    "RSS start → peak": `${mb(atStart.rss)} → ${mb(peakRss)}`,
    "heap start → peak": `${mb(atStart.heapUsed)} → ${mb(peakHeap)}`,
    "check rows": checks,
    "e-mails": emails,
  },
]);
console.log("Summary:", summary);
if (AGENTS === 10_000) recordFigures({ health_10k_s: wallMs / 1000, health_10k_rss_mb: peakRss / 1024 / 1024 });
process.exit(0);
