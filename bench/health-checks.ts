// `npm run bench`, second part: one health-check sweep (lib/agents/run-health-checks.ts) over
// 10,000 agents pointed at a local mock webhook fleet, in a fresh database on the real PostgreSQL.
// ~94% of webhooks answer 200, 5% answer 500 and 1% hang past the timeout. Prints wall time,
// checks per second, the sweep process's peak memory (the fleet runs in a child process) and the
// run's summary; asserts nothing.
// BENCH_AGENTS (10000) and BENCH_HEALTH_TIMEOUT_MS (2000) change the fleet and the timeout.

import { spawn } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import path from "node:path";
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

// The fleet: a few plain servers in a process of their own (so the sweep's memory is measured
// alone), the path decides the behaviour. The child prints its servers' base URLs as JSON.
const FLEET_CODE = `
const http = require("node:http");
Promise.all(Array.from({ length: ${SERVERS} }, () => new Promise((resolve) => {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      if (req.url === "/hang") return; // never answers; the check times out and drops the socket
      res.writeHead(req.url === "/fail" ? 500 : 200, { "content-type": "application/json" }).end('{"ok":true}');
    });
  });
  server.listen(0, "127.0.0.1", () => resolve("http://127.0.0.1:" + server.address().port));
}))).then((bases) => console.log(JSON.stringify(bases)));`;
const fleetProcess = spawn(process.execPath, ["-e", FLEET_CODE], { stdio: ["ignore", "pipe", "inherit"] });
const fleet: { base: string }[] = await new Promise((resolve) =>
  fleetProcess.stdout.once("data", (chunk: Buffer) => resolve(JSON.parse(chunk.toString()).map((base: string) => ({ base })))),
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

// The run itself in a fresh process (bench/health-check-run.ts), as a cron function makes it: its
// memory is the run's, not this process's seeding.
const run = spawn(
  process.execPath,
  [path.resolve("node_modules/tsx/dist/cli.mjs"), "--conditions=react-server", "bench/health-check-run.ts"],
  {
    env: process.env,
    stdio: ["ignore", "pipe", "inherit"],
  },
);
let output = "";
run.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
await new Promise((resolve) => run.once("exit", resolve));
const { wallMs, rssStart, rssPeak, heapPeak, externalPeak, summary } = JSON.parse(output.trim().split("\n").at(-1)!) as {
  wallMs: number;
  rssStart: number;
  rssPeak: number;
  heapPeak: number;
  externalPeak: number;
  summary: { checked: number };
};

const [emails, checks] = await Promise.all([db.email.count(), db.healthCheck.count()]);
fleetProcess.kill();
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
    "RSS start → peak": `${mb(rssStart)} → ${mb(rssPeak)}`,
    "heap peak": mb(heapPeak),
    "external peak": mb(externalPeak),
    "check rows": checks,
    "e-mails": emails,
  },
]);
console.log("Summary:", summary);
if (AGENTS === 10_000) recordFigures({ health_10k_s: wallMs / 1000, health_10k_rss_mb: rssPeak / 1024 / 1024 });
process.exit(0);
