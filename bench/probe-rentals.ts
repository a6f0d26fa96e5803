// `npm run bench`, the availability probe: one round of lib/availability/probe-rentals.ts (the
// per-minute cron) over 10,000 agents, each with one rental running now, in a fresh database on
// the real PostgreSQL, against a local mock webhook fleet: 5 % of the agents answer 500 and 1 % hang
// past the timeout, the production one (10 s, HEALTH_CHECK_TIMEOUT_MS); every agent has a signing
// secret, so every probe is signed. Prints the round's wall time (the goal: well inside the
// minute it probes), the run process's peak memory, its summary and what the database recorded:
// every rental's minute measured, and down for the failing and hanging agents. Asserts nothing;
// records probe_10k_agents_s for BENCH_JSON. BENCH_PROBE_AGENTS changes the size (the figure is
// recorded at 10,000 only); PROBE_CONCURRENCY is the round's, as in production.

import { spawn } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { build } from "esbuild";
import pg from "pg";
import { applyMigrations } from "../scripts/apply-migrations";
import { recordFigures } from "./figures";

const AGENTS = Number(process.env.BENCH_PROBE_AGENTS ?? "10000");
const ADMIN_URL = process.env.BENCH_DATABASE_ADMIN_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const DB_URL = Object.assign(new URL(ADMIN_URL), { pathname: "/ars_bench_probe" }).toString();
const SERVERS = 4;
const OWNERS = 100;
const SEED_CHUNK = 5_000;
// Compiled JavaScript run by plain Node, as the cron's function runs the build's output.
const RUN_BUNDLE = "bench-results/probe-rentals-run.mjs";

// Read by lib/env in the seeding below and, inherited, in the round.
process.env.DATABASE_URL = DB_URL;
process.env.ALLOW_PRIVATE_WEBHOOKS = "1";
process.env.SECRET_BOX_KEYS = `bench:${randomBytes(32).toString("base64")}`;
process.env.HEALTH_CHECK_TIMEOUT_MS = "10000"; // the production timeout
process.env.RESEND_API_KEY = "";
const { env } = await import("@/lib/env");
const { newSigningSecret, sealWebhookCredentials } = await import("@/lib/agents/webhook-credentials");

await build({
  entryPoints: ["bench/probe-rentals-run.ts"],
  outfile: RUN_BUNDLE,
  bundle: true,
  platform: "node",
  format: "esm",
  packages: "external",
  conditions: ["react-server"],
  logLevel: "warning",
});

// The fleet: a few plain servers in a process of their own; the path decides the behaviour. A
// hanging request is never answered: the probe gives up at its timeout.
const FLEET_CODE = `
const http = require("node:http");
Promise.all(Array.from({ length: ${SERVERS} }, () => new Promise((resolve) => {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      if (req.url === "/hang") return;
      res.writeHead(req.url === "/fail" ? 500 : 200, { "content-type": "application/json" }).end('{"ok":true}');
    });
  });
  server.listen(0, "127.0.0.1", () => resolve("http://127.0.0.1:" + server.address().port));
}))).then((bases) => console.log(JSON.stringify(bases)));`;
const fleetProcess = spawn(process.execPath, ["-e", FLEET_CODE], { stdio: ["ignore", "pipe", "inherit"] });
process.on("exit", () => fleetProcess.kill()); // also when the bench fails
const fleet: string[] = await new Promise((resolve) =>
  fleetProcess.stdout.once("data", (chunk: Buffer) => resolve(JSON.parse(chunk.toString()))),
);
// 1 % hang (i ≡ 99 mod 100), 5 % fail (i ≡ 0 mod 20): disjoint.
const behaviour = (i: number) => (i % 100 === 99 ? "hang" : i % 20 === 0 ? "fail" : "ok");

async function seed(client: pg.Client): Promise<void> {
  const owners = Array.from({ length: OWNERS }, () => randomUUID());
  await client.query(
    "INSERT INTO accounts (id, email) SELECT id, 'bench-owner-' || n || '@example.com' FROM unnest($1::uuid[]) WITH ORDINALITY AS o (id, n)",
    [owners],
  );
  const token = randomBytes(32).toString("base64url");
  for (let start = 0; start < AGENTS; start += SEED_CHUNK) {
    const rows = Array.from({ length: Math.min(SEED_CHUNK, AGENTS - start) }, (_, k) => {
      const i = start + k;
      const id = randomUUID();
      const url = `${fleet[i % SERVERS]}/${behaviour(i)}`;
      return { id, i, ...sealWebhookCredentials(id, { url, token, signingSecret: newSigningSecret() }) };
    });
    await client.query(
      `INSERT INTO agents (id, owner_id, name, description, category, channels, price_per_day, status, updated_at,
         webhook_url_cipher, webhook_token_cipher, webhook_signing_secret_cipher)
       SELECT id, ($2::uuid[])[1 + i % ${OWNERS}], 'Probe Agent ' || i, 'Availability probe benchmark agent.', 'other',
         '{API}', 10000000, 'available', now(), url, token, secret
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
    // One day's rental each, begun an hour ago: running for the whole round.
    await client.query(
      `INSERT INTO rentals (id, escrow_id, session_key, agent_id, status, duration_type, channel, starts_at, ends_at,
         price_micro_usdc, fee_micro_usdc, created_at, updated_at)
       SELECT gen_random_uuid(), '0x' || md5(a::text) || md5(a::text || 'x'), md5(a::text || 's'), a, 'active', 'day', 'API',
         now() - interval '1 hour', now() + interval '23 hours', 10000000, 1000000, now(), now()
       FROM unnest($1::uuid[]) AS a`,
      [rows.map((row) => row.id)],
    );
  }
  for (const table of ["agents", "rentals"]) await client.query(`VACUUM ANALYZE ${table}`);
}

type RunOutput = {
  wallMs: number;
  rssStart: number;
  rssPeak: number;
  summary: { probed: number; up: number; down: number; rentals: number };
};

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

const admin = new pg.Client({ connectionString: ADMIN_URL });
await admin.connect();
await admin.query("DROP DATABASE IF EXISTS ars_bench_probe WITH (FORCE)");
await admin.query("CREATE DATABASE ars_bench_probe");
await admin.end();
await applyMigrations(DB_URL);
const client = new pg.Client({ connectionString: DB_URL });
await client.connect();
const seedStarted = performance.now();
await seed(client);
const seedMs = performance.now() - seedStarted;

const round = await runOnce();
const {
  rows: [counts],
} = await client.query<{ measured: number; down: number; probed: number }>(
  `SELECT count(*) FILTER (WHERE cardinality(minutes_measured) > 0)::int AS measured,
          count(*) FILTER (WHERE cardinality(minutes_down) > 0)::int AS down,
          (SELECT count(*)::int FROM agents WHERE probed_minute IS NOT NULL) AS probed
     FROM rentals`,
);
await client.end();
fleetProcess.kill();

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
console.log(
  `\nAvailability probe, one round: ${AGENTS.toLocaleString("en")} agents with a running rental, ${SERVERS} mock webhook servers ` +
    `(~94% 200, 5% 500, 1% hang), ${env.PROBE_CONCURRENCY} in flight, timeout ${env.HEALTH_CHECK_TIMEOUT_MS} ms, database pool ${env.DATABASE_POOL_MAX}\n`,
);
console.table([
  {
    agents: AGENTS,
    "seed s": (seedMs / 1000).toFixed(1),
    "round s": (round.wallMs / 1000).toFixed(2),
    "probes/s": Math.round(round.summary.probed / (round.wallMs / 1000)),
    "RSS start → peak": `${mb(round.rssStart)} → ${mb(round.rssPeak)}`,
    "probed up/down": `${round.summary.up}/${round.summary.down}`,
    "rentals recorded": round.summary.rentals,
    "rows measured": counts.measured,
    "rows with a down minute": counts.down,
    "agents claimed": counts.probed,
  },
]);
if (AGENTS === 10_000) recordFigures({ probe_10k_agents_s: round.wallMs / 1000 });
process.exit(0);
