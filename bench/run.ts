// `npm run bench`: builds the app, serves it with `npm start`'s server against the real
// PostgreSQL, and prints throughput and latency figures and page JS sizes. It asserts nothing.
//   1. GET /api/health (the framework floor) and GET /api/v1/status at 1 and 50 connections;
//   2. the latency POST /api/v1/chat adds over calling the echo webhook directly;
//   (and /api/v1/status at 10 connections idle, then while 500 chats wait 20 s on their webhook);
//   then 2,000 such chats at once; every chat's answer is counted (bench/slow-chats.ts);
//   3. each page's first-load JS and whether it holds wallet code (bench/first-load-js.ts).
// BENCH_SECONDS (8) and BENCH_CHAT_SAMPLES (1000) shorten or lengthen the runs.
import { spawn } from "node:child_process";
import { randomBytes, randomInt } from "node:crypto";
import http from "node:http";
import autocannon from "autocannon";
import pg from "pg";
import { applyMigrations } from "../scripts/apply-migrations";
import { startEchoAgent } from "../scripts/echo-agent";
import { tsNodeArgs } from "../scripts/node-args";
import { recordFigures } from "./figures";
import { measureFirstLoadJs, printFirstLoadJs } from "./first-load-js";
import { printSlowChats, runSlowChats, startSlowWebhook } from "./slow-chats";

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
process.env.SECRET_BOX_KEYS = `bench:${randomBytes(32).toString("base64")}`; // shared with the server below
await applyMigrations(dbUrl);

const token = randomBytes(32).toString("base64url");
const echo = await startEchoAgent(token);
const { seedDemo } = await import("../scripts/seed-demo");
const { db } = await import("@/lib/db");
const demo = await seedDemo({ url: echo.url, token });
// A second agent whose webhook answers after 20 seconds: the chats that wait on it must not slow
// anyone else, and each must get its answer.
const HANG_MS = 20_000;
const slowHook = await startSlowWebhook(HANG_MS);
const { createAgent } = await import("@/lib/agents/create-agent");
const { createUnpaidRental } = await import("@/lib/rentals/create-unpaid-rental");
const { agentListingSchema } = await import("@/lib/schemas/agent-listing");
const slowOwner = await db.account.create({ data: { email: "slow-owner@bench.example" } });
const slowAgent = await createAgent(
  slowOwner.id,
  agentListingSchema.parse({
    name: "Slow Agent",
    description: "Answers after 20 s.",
    category: "other",
    channels: ["API"],
    pricePerDay: 1,
  }),
  { status: "available", webhook: { url: slowHook.url, token } },
);
const slowCode = (
  await createUnpaidRental({ agentId: slowAgent.id, durationType: "day", channel: "API", status: "active", startsInSeconds: 0 })
).id.slice(0, 8);
await db.$disconnect();

const server = spawn(process.execPath, tsNodeArgs("scripts/server.ts"), {
  env: {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(PORT),
    DATABASE_URL: dbUrl,
    DATABASE_POOL_MAX: "10",
    // What `npm start` requires in production (lib/required-production-settings.ts).
    APP_URL: `http://127.0.0.1:${PORT}`,
    CRON_SECRET: randomBytes(24).toString("base64url"),
    ALLOW_PRIVATE_WEBHOOKS: "1",
    // Each request below claims its own client address so the 60/min limit measures its cost
    // without refusing the load; the server trusts the header only because of this flag.
    TRUST_PROXY: "1",
    UPSTASH_REDIS_REST_URL: "", // in-memory limits: the bench measures our code, not a network hop
    UPSTASH_REDIS_REST_TOKEN: "",
  },
  stdio: ["ignore", "pipe", "inherit"],
});
await new Promise<void>((resolve, reject) => {
  server.stdout!.on("data", (c: Buffer) => c.toString().includes("Ready on") && resolve());
  server.once("exit", (code) => reject(new Error(`the server exited (${code}) before it was ready`)));
});
const base = `http://127.0.0.1:${PORT}`;

type Row = { name: string; connections: number; rps: number; mean: number; p50: number; p99: number; non2xx: number };
const rows: Row[] = [];

async function run(name: string, connections: number, opts: Partial<autocannon.Options>): Promise<void> {
  let n = 0;
  const result = await autocannon({
    duration: DURATION,
    connections,
    ...opts,
    requests: [
      {
        setupRequest: (req) => {
          n++;
          return {
            ...req,
            headers: { ...req.headers, "x-forwarded-for": `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}` },
          };
        },
      },
    ],
  } as autocannon.Options);
  rows.push({
    name,
    connections,
    rps: Math.round(result.requests.average),
    mean: result.latency.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
  });
}

// Warm up both routes (first request compiles nothing in production, but opens DB connections).
for (let i = 0; i < 20; i++) await fetch(`${base}/api/v1/status`, { headers: { "X-API-Key": demo.code } });

const firstLoad = await measureFirstLoadJs(base, [
  { route: "/", path: "/" },
  { route: "/agents/[id]", path: `/agents/${demo.agentId}` },
  { route: "/agents/[id]/rent", path: `/agents/${demo.agentId}/rent`, walletExpected: true },
  { route: "/sign-in", path: "/sign-in" },
  { route: "/docs/renters", path: "/docs/renters" },
  // The API reference's library is loaded after the page: it shows under on demand.
  { route: "/docs/api", path: "/docs/api" },
]);

for (const c of [1, 50]) {
  await run("GET /api/health (framework floor)", c, { url: `${base}/api/health` });
  await run("GET /api/v1/status", c, { url: `${base}/api/v1/status`, headers: { "x-api-key": demo.code } });
}

// Status while 500 chats wait on a webhook that answers after 20 s: the waiting chats hold no
// database connection and no worker, so status should barely notice them. Each chat comes from an
// address of its own (the 60/min limit is per client); they are all in flight during the run.
const HUNG_CHATS = 500;
const statusRun = { url: `${base}/api/v1/status`, headers: { "x-api-key": demo.code } };
await run("GET /api/v1/status, idle", 10, statusRun);
const slowChats = { base, code: slowCode, webhook: slowHook, serverPid: server.pid! };
const hung = await runSlowChats({
  ...slowChats,
  chats: HUNG_CHATS,
  beside: () => run(`GET /api/v1/status, ${HUNG_CHATS} chats waiting`, 10, statusRun),
});

// Chat overhead: the same message sent to the echo webhook directly and through /api/v1/chat,
// interleaved one at a time so both see the same machine state; timed to the microsecond.
const CHAT_SAMPLES = Number(process.env.BENCH_CHAT_SAMPLES ?? 1000);
const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 1 });
const directBody = JSON.stringify({ type: "message", message: "Hello, agent!", agentId: demo.agentId });
const proxiedBody = JSON.stringify({ message: "Hello, agent!" });
const direct: number[] = [];
const proxied: number[] = [];
for (let i = 0; i < CHAT_SAMPLES; i++) {
  direct.push(await timedPost(echo.url, { authorization: `Bearer ${token}` }, directBody));
  proxied.push(
    await timedPost(`${base}/api/v1/chat`, { "x-api-key": demo.code, "x-forwarded-for": `10.200.${i >> 8}.${i & 255}` }, proxiedBody),
  );
}

function timedPost(url: string, headers: Record<string, string>, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = http.request(
      url,
      { method: "POST", agent: keepAlive, headers: { ...headers, "content-type": "application/json" } },
      (res) => {
        res.resume();
        res.on("end", () => (res.statusCode === 200 ? resolve(performance.now() - started) : reject(new Error(`HTTP ${res.statusCode}`))));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

// 2,000 chats at once on the same slow webhook, nothing beside them (after the overhead samples,
// which they would disturb).
const MANY_CHATS = 2_000;
const many = await runSlowChats({ ...slowChats, chats: MANY_CHATS, firstChat: HUNG_CHATS });

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

server.kill("SIGTERM");
await echo.close();
slowHook.close();

console.log(`\nBenchmark (${DURATION}s per run, autocannon, one server process, real PostgreSQL)\n`);
console.table(
  rows.map((r) => ({
    run: r.name,
    conns: r.connections,
    "req/s": r.rps,
    "mean ms": r.mean,
    "p50 ms": r.p50,
    "p99 ms": r.p99,
    non2xx: r.non2xx,
  })),
);
const ms = (x: number) => x.toFixed(2);
console.log(`\nChat proxy overhead, ${CHAT_SAMPLES} sequential requests each, keep-alive:`);
console.table([
  { target: "echo webhook directly", "p50 ms": ms(pct(direct, 50)), "p99 ms": ms(pct(direct, 99)) },
  { target: "POST /api/v1/chat", "p50 ms": ms(pct(proxied, 50)), "p99 ms": ms(pct(proxied, 99)) },
  {
    target: "added by the service",
    "p50 ms": ms(pct(proxied, 50) - pct(direct, 50)),
    "p99 ms": ms(pct(proxied, 99) - pct(direct, 99)),
  },
]);
printFirstLoadJs(firstLoad);

const at50 = (name: string) => rows.find((r) => r.name === name && r.connections === 50)!.rps;
const gzipKb = (route: string) => (firstLoad.find((p) => p.route === route)?.firstLoad?.gzip ?? Number.NaN) / 1024;
const p99Of = (name: string) => rows.find((r) => r.name === name)!.p99;
console.log(`\nSlow chats (bench/slow-chats.ts); the first run had status's run beside it:`);
printSlowChats(hung, HANG_MS);
printSlowChats(many, HANG_MS);
recordFigures({
  status_p99_hung_vs_idle: p99Of(`GET /api/v1/status, ${HUNG_CHATS} chats waiting`) / p99Of("GET /api/v1/status, idle"),
  status_vs_floor: at50("GET /api/v1/status") / at50("GET /api/health (framework floor)"),
  chat_added_p50_ms: pct(proxied, 50) - pct(direct, 50),
  chat_added_p99_ms: pct(proxied, 99) - pct(direct, 99),
  slow_chats_ok_of_500: hung.ok,
  slow_chats_ok_of_2000: many.ok,
  rent_first_load_gzip_kb: gzipKb("/agents/[id]/rent"),
  home_first_load_gzip_kb: gzipKb("/"),
});
process.exit(0);
