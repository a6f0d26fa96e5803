// `npm run bench`: builds the app, serves it with `npm start`'s server against the real
// PostgreSQL, and prints throughput and latency figures. It asserts nothing.
//   1. GET /api/health (the framework floor) and GET /api/v1/status at 1 and 50 connections;
//   2. the latency POST /api/v1/chat adds over calling the echo webhook directly.
import { spawn } from "node:child_process";
import { randomBytes, randomInt } from "node:crypto";
import path from "node:path";
import autocannon from "autocannon";
import pg from "pg";
import { applyMigrations } from "../scripts/apply-migrations";
import { startEchoAgent } from "../scripts/echo-agent";

const DURATION = Number(process.env.BENCH_SECONDS ?? 8);
const ADMIN_URL = process.env.BENCH_DATABASE_ADMIN_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const PORT = 3100 + randomInt(0, 500);

const admin = new pg.Client({ connectionString: ADMIN_URL });
await admin.connect();
await admin.query("DROP DATABASE IF EXISTS ars_bench WITH (FORCE)");
await admin.query("CREATE DATABASE ars_bench");
await admin.end();
const dbUrl = Object.assign(new URL(ADMIN_URL), { pathname: "/ars_bench" }).toString();
process.env.DATABASE_URL = dbUrl;
process.env.ALLOW_PRIVATE_WEBHOOKS = "1";
await applyMigrations(dbUrl);

const token = randomBytes(32).toString("base64url");
const echo = await startEchoAgent(token);
const { seedDemo } = await import("../scripts/seed-demo");
const { db } = await import("@/lib/db");
const demo = await seedDemo({ url: echo.url, token });
await db.$disconnect();

const server = spawn(process.execPath, [path.resolve("node_modules/tsx/dist/cli.mjs"), "scripts/server.ts"], {
  env: {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(PORT),
    DATABASE_URL: dbUrl,
    DATABASE_POOL_MAX: "10",
    ALLOW_PRIVATE_WEBHOOKS: "1",
    // Each request below claims its own client address so the 60/min limit measures its cost
    // without refusing the load; the server trusts the header only because of this flag.
    TRUST_PROXY: "1",
    UPSTASH_REDIS_REST_URL: "",
    UPSTASH_REDIS_REST_TOKEN: "",
  },
  stdio: ["ignore", "pipe", "inherit"],
});
await new Promise<void>((resolve) => server.stdout!.on("data", (c: Buffer) => c.toString().includes("Ready on") && resolve()));
const base = `http://127.0.0.1:${PORT}`;

type Row = { name: string; connections: number; rps: number; p50: number; p99: number; non2xx: number };
const rows: Row[] = [];

async function run(name: string, connections: number, opts: Partial<autocannon.Options>): Promise<autocannon.Result> {
  let n = 0;
  const result = await autocannon({
    duration: DURATION,
    connections,
    ...opts,
    requests: [
      {
        setupRequest: (req) => {
          n++;
          return { ...req, headers: { ...req.headers, "x-forwarded-for": `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}` } };
        },
      },
    ],
  } as autocannon.Options);
  rows.push({ name, connections, rps: Math.round(result.requests.average), p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx });
  return result;
}

// Warm up both routes (first request compiles nothing in production, but opens DB connections).
for (let i = 0; i < 20; i++) await fetch(`${base}/api/v1/status`, { headers: { "X-API-Key": demo.code } });

for (const c of [1, 50]) {
  await run("GET /api/health (framework floor)", c, { url: `${base}/api/health` });
  await run("GET /api/v1/status", c, { url: `${base}/api/v1/status`, headers: { "x-api-key": demo.code } });
}

const message = JSON.stringify({ message: "Hello, agent!" });
const direct = await run("POST echo webhook directly", 1, {
  url: echo.url,
  method: "POST",
  headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
  body: JSON.stringify({ type: "message", message: "Hello, agent!" }),
});
const proxied = await run("POST /api/v1/chat (via proxy)", 1, {
  url: `${base}/api/v1/chat`,
  method: "POST",
  headers: { "x-api-key": demo.code, "content-type": "application/json" },
  body: message,
});

server.kill("SIGTERM");
await echo.close();

console.log(`\nBenchmark (${DURATION}s per run, autocannon, one server process, real PostgreSQL)\n`);
console.table(rows.map((r) => ({ run: r.name, conns: r.connections, "req/s": r.rps, "p50 ms": r.p50, "p99 ms": r.p99, non2xx: r.non2xx })));
console.log(
  `\nLatency /api/v1/chat adds over calling the echo webhook directly (1 connection): ` +
    `p50 +${(proxied.latency.p50 - direct.latency.p50).toFixed(2)} ms, p99 +${(proxied.latency.p99 - direct.latency.p99).toFixed(2)} ms`,
);
process.exit(0);
