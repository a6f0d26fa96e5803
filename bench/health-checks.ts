// `npm run bench`, second part: health-check sweeps (lib/agents/run-health-checks.ts) over fleets
// of agents pointed at a local mock webhook fleet, each size in a fresh database on the real
// PostgreSQL. ~94% of webhooks answer 200, 5% answer 500 and 1% hang past the timeout; every agent
// has a signing secret, so every check is signed. Prints, per size, the wall time of the runs a
// sweep took (a run stops at its time budget and the next one takes the rest), checks per second,
// the run process's peak memory (the fleet runs in a process of its own) and the summary; asserts
// nothing. BENCH_HEALTH_AGENTS (comma-separated sizes, default 10000; the plan in
// docs/performance.md measures 1000,10000,100000) and BENCH_HEALTH_TIMEOUT_MS (2000) change the
// fleets and the timeout; HEALTH_CHECK_CONCURRENCY is the run's, as in production.
//
// Every run goes through the in-process queue (no QStash here): its batches, cut by webhook host
// as QStash would get them, run in the run's process. Then a round of 100,000 agents
// (BENCH_HEALTH_BATCH_AGENTS, 0 to skip; reused when BENCH_HEALTH_AGENTS has that size) records its
// slowest batch as health_100k_batches_s: the time one QStash delivery of a batch would need,
// which has to stay well inside a function's limit however large the fleet grows.

import { spawn } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { build } from "esbuild";
import pg from "pg";
import { applyMigrations } from "../scripts/apply-migrations";
import { recordFigures } from "./figures";

const SIZES = (process.env.BENCH_HEALTH_AGENTS ?? "10000").split(",").map(Number);
const BATCH_AGENTS = Number(process.env.BENCH_HEALTH_BATCH_AGENTS ?? "100000");
const ADMIN_URL = process.env.BENCH_DATABASE_ADMIN_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const DB_URL = Object.assign(new URL(ADMIN_URL), { pathname: "/ars_bench_health" }).toString();
const SERVERS = 4;
const OWNERS = 100;
const SEED_CHUNK = 5_000;
// Compiled JavaScript run by plain Node, as the cron's function runs the build's output: under
// tsx, a loader thread (a second V8 heap, about 25 MB) would be counted as the run's memory.
const RUN_BUNDLE = "bench-results/health-check-run.mjs";

// Read by lib/env in the seeding below and, inherited, in every run.
process.env.DATABASE_URL = DB_URL;
process.env.ALLOW_PRIVATE_WEBHOOKS = "1";
process.env.SECRET_BOX_KEYS = `bench:${randomBytes(32).toString("base64")}`;
process.env.HEALTH_CHECK_TIMEOUT_MS = process.env.BENCH_HEALTH_TIMEOUT_MS ?? "2000";
process.env.RESEND_API_KEY = ""; // never mail real people from a benchmark: the outbox it is
process.env.QSTASH_TOKEN = ""; // and never publish to a real queue: the in-process one it is
const { env } = await import("@/lib/env");
const { newSigningSecret, sealWebhookCredentials } = await import("@/lib/agents/webhook-credentials");

await build({
  entryPoints: ["bench/health-check-run.ts"],
  outfile: RUN_BUNDLE,
  bundle: true,
  platform: "node",
  format: "esm",
  packages: "external",
  conditions: ["react-server"],
  logLevel: "warning",
});

// The fleet: a few plain servers in a process of their own (so the run's memory is measured
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
const fleet: string[] = await new Promise((resolve) =>
  fleetProcess.stdout.once("data", (chunk: Buffer) => resolve(JSON.parse(chunk.toString()))),
);
const behaviour = (i: number) => (i % 100 === 99 ? "hang" : i % 20 === 0 ? "fail" : "ok");

type RunOutput = {
  wallMs: number;
  rssStart: number;
  rssPeak: number;
  heapPeak: number;
  externalPeak: number;
  summary: { checked: number; remaining: number };
  batches: number;
  slowestBatchMs: number | null;
};

// One run in a fresh process (bench/health-check-run.ts), as a cron invocation makes it: its
// memory is the run's, not this process's seeding.
async function runOnce(): Promise<RunOutput> {
  const run = spawn(process.execPath, ["--conditions=react-server", RUN_BUNDLE], {
    env: process.env,
    stdio: ["ignore", "pipe", "inherit"],
  });
  let output = "";
  run.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  await new Promise((resolve) => run.once("exit", resolve));
  return JSON.parse(output.trim().split("\n").at(-1)!);
}

async function seed(client: pg.Client, agents: number): Promise<void> {
  const owners = Array.from({ length: OWNERS }, () => randomUUID());
  await client.query(
    "INSERT INTO accounts (id, email) SELECT id, 'bench-owner-' || n || '@example.com' FROM unnest($1::uuid[]) WITH ORDINALITY AS o (id, n)",
    [owners],
  );
  const token = randomBytes(32).toString("base64url");
  for (let start = 0; start < agents; start += SEED_CHUNK) {
    const rows = Array.from({ length: Math.min(SEED_CHUNK, agents - start) }, (_, k) => {
      const i = start + k;
      const id = randomUUID();
      const url = `${fleet[i % SERVERS]}/${behaviour(i)}`;
      return { id, i, ...sealWebhookCredentials(id, { url, token, signingSecret: newSigningSecret() }) };
    });
    await client.query(
      `INSERT INTO agents (id, owner_id, name, description, category, channels, price_per_hour, status, updated_at,
         webhook_url_cipher, webhook_token_cipher, webhook_signing_secret_cipher)
       SELECT id, ($2::uuid[])[1 + i % ${OWNERS}], 'Bench Agent ' || i, 'Health-check benchmark agent.', 'other',
         '{API}', 1000000, 'available', now(), url, token, secret
       FROM unnest($1::uuid[], $3::int[], $4::text[], $5::text[], $6::text[]) AS row (id, i, url, token, secret)`,
      [
        rows.map((row) => row.id),
        owners,
        rows.map((row) => row.i),
        rows.map((row) => row.webhookUrlCipher),
        rows.map((row) => row.webhookTokenCipher),
        rows.map((row) => row.webhookSigningSecretCipher),
      ],
    );
  }
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const table = [];
for (const agents of [...SIZES, ...(BATCH_AGENTS > 0 && !SIZES.includes(BATCH_AGENTS) ? [BATCH_AGENTS] : [])]) {
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query("DROP DATABASE IF EXISTS ars_bench_health WITH (FORCE)");
  await admin.query("CREATE DATABASE ars_bench_health");
  await admin.end();
  await applyMigrations(DB_URL);
  const client = new pg.Client({ connectionString: DB_URL });
  await client.connect();
  const seedStarted = performance.now();
  await seed(client, agents);
  const seedMs = performance.now() - seedStarted;

  // Runs until none leaves agents due, as the cron's next invocations would.
  const runs: RunOutput[] = [];
  do runs.push(await runOnce());
  while (runs.at(-1)!.summary.remaining > 0 && runs.at(-1)!.summary.checked > 0);
  const wallMs = runs.reduce((sum, run) => sum + run.wallMs, 0);
  const checked = runs.reduce((sum, run) => sum + run.summary.checked, 0);
  const rssPeak = Math.max(...runs.map((run) => run.rssPeak));
  const slowest = Math.max(...runs.map((run) => run.slowestBatchMs ?? 0));
  const {
    rows: [counts],
  } = await client.query<{ rows: number; agents: number; emails: number }>(
    `SELECT (SELECT count(*)::int FROM health_checks) AS rows,
       (SELECT count(DISTINCT agent_id)::int FROM health_checks) AS agents, (SELECT count(*)::int FROM emails) AS emails`,
  );
  await client.end();

  table.push({
    agents,
    "seed s": (seedMs / 1000).toFixed(1),
    runs: runs.length,
    "wall s": (wallMs / 1000).toFixed(2),
    "checks/s": Math.round(checked / (wallMs / 1000)),
    "RSS start → peak": `${mb(runs[0].rssStart)} → ${mb(rssPeak)}`,
    "heap peak": mb(Math.max(...runs.map((run) => run.heapPeak))),
    "external peak": mb(Math.max(...runs.map((run) => run.externalPeak))),
    "check rows": counts.rows,
    "agents checked": counts.agents,
    "e-mails": counts.emails,
    batches: runs.reduce((sum, run) => sum + run.batches, 0),
    "slowest batch s": (slowest / 1000).toFixed(2),
  });
  console.log(
    `${agents} agents:`,
    runs.map((run) => run.summary),
  );
  if (agents === 10_000) recordFigures({ health_10k_s: wallMs / 1000, health_10k_rss_mb: rssPeak / 1024 / 1024 });
  if (agents === 100_000) recordFigures({ health_100k_batches_s: slowest / 1000 });
}
fleetProcess.kill();

console.log(
  `\nHealth-check sweeps: ${SERVERS} mock webhook servers (~94% 200, 5% 500, 1% hang), concurrency ` +
    `${env.HEALTH_CHECK_CONCURRENCY}, timeout ${env.HEALTH_CHECK_TIMEOUT_MS} ms, database pool ${env.DATABASE_POOL_MAX}\n`,
);
console.table(table);
process.exit(0);
